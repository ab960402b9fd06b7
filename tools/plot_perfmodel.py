#!/usr/bin/env python3
"""Plots measured against predicted step times from a cellgraph performance-model fit
(`cellgraph perfmodel fit ... --predictions FILE.csv`, or `perfmodel validate ... --predictions`)
into a PNG: one point per timed configuration on log-log axes, coloured by layout kind, rows on
several ranks drawn as triangles, rows held out of the fit ringed; the diagonal is a perfect
prediction, the dashed lines +-10%.

Draws with matplotlib when Python can import it, otherwise with gnuplot (Debian: gnuplot-nox);
CELLGRAPH_PLOTTER=matplotlib or =gnuplot forces one.

    tools/plot_perfmodel.py h100.pred.csv                 # writes h100.pred.png, the fit's preferred view
    tools/plot_perfmodel.py h100.pred.csv --view cycles -o cycles.png
    tools/plot_perfmodel.py h100.pred.csv --view two-term   # the per-cell + per-byte model

Exit status: 0 written; 1 bad input or options; 3 no plotter found. The PNG is written to a
temporary file and renamed, so a failure leaves nothing behind.
"""
import argparse
import csv
import math
import os
import sys

from plotting import NO_PLOTTER, InputError, choose_plotter, gnuplot_string, parse_size, run_gnuplot

COLUMNS = ["source", "kind", "model", "update", "ranks", "cells", "bytes_per_cell", "measured", "predicted_cycles",
           "predicted_bytes", "predicted_two_term", "preferred", "held_out"]
# Written since: the preferred view's prediction in its two parts (not drawn).
PARTS = ["compute", "exchange"]
VIEWS = ["cycles", "bytes", "two-term"]


def predicted(view):
    """The column of a view's predictions ("two-term" -> predicted_two_term)."""
    return "predicted_" + view.replace("-", "_")
KINDS = ["grid", "graph", "hubs"]
COLOURS = {"grid": "#1f77b4", "graph": "#2ca02c", "hubs": "#d62728"}


def read_predictions(path):
    """Returns a list of dicts (numbers converted); raises InputError naming file and line."""
    try:
        with open(path, newline="") as f:
            lines = list(csv.reader(f))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")
    if not lines or lines[0] not in (COLUMNS, COLUMNS + PARTS):
        raise InputError(f"{path}:1: expected the header {','.join(COLUMNS + PARTS)} "
                         "(written by cellgraph perfmodel fit --predictions)")
    columns = lines[0]
    rows = []
    for number, fields in enumerate(lines[1:], start=2):
        if len(fields) != len(columns):
            raise InputError(f"{path}:{number}: {len(fields)} values for {len(columns)} columns")
        row = dict(zip(columns, fields))
        try:
            for key in ["measured"] + [predicted(v) for v in VIEWS]:
                row[key] = float(row[key])
                if not row[key] > 0 or not math.isfinite(row[key]):
                    raise ValueError
            row["ranks"] = int(row["ranks"])
            row["held_out"] = row["held_out"] == "1"
        except ValueError:
            raise InputError(f"{path}:{number}: a time is not a positive number, or ranks not a whole number")
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no rows below the header")
    return rows


def pearson(x, y):
    n = len(x)
    if n < 2:
        return float("nan")
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def summary(rows, view):
    """The title's figures: correlation of seconds and of their logs, the largest error."""
    m = [r["measured"] for r in rows]
    p = [r[predicted(view)] for r in rows]
    worst = max(abs(b / a - 1) for a, b in zip(m, p))
    held = [r for r in rows if r["held_out"]]
    text = (f"{view} view: pearson {pearson(m, p):.4f}, of logs "
            f"{pearson([math.log(v) for v in m], [math.log(v) for v in p]):.4f}, max error {100 * worst:.1f}%")
    if held:
        worst_held = max(abs(r[predicted(view)] / r["measured"] - 1) for r in held)
        text += f"\nheld out of the fit: {len(held)} rows, max error {100 * worst_held:.1f}%"
    return text


def axis_range(rows, view):
    values = [r["measured"] for r in rows] + [r[predicted(view)] for r in rows]
    return min(values) / 1.5, max(values) * 1.5


def groups(rows, view):
    """(label, colour, marker kind, held out, [(measured, predicted)]) per kind, rank class and holdout."""
    out = []
    for kind in KINDS + sorted({r["kind"] for r in rows} - set(KINDS)):
        for several in (False, True):
            for held in (False, True):
                points = [(r["measured"], r[predicted(view)]) for r in rows
                          if r["kind"] == kind and (r["ranks"] > 1) == several and r["held_out"] == held]
                if points:
                    label = kind + (", several ranks" if several else "") + (", held out" if held else "")
                    out.append((label, COLOURS.get(kind, "#7f7f7f"), several, held, points))
    return out


def plot_matplotlib(rows, view, out, size, title):
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    dpi = 100
    fig, ax = plt.subplots(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    low, high = axis_range(rows, view)
    ax.plot([low, high], [low, high], color="black", linewidth=1, label="predicted = measured")
    for f, style in ((1.1, "--"), (1 / 1.1, "--")):
        ax.plot([low, high], [low * f, high * f], color="grey", linewidth=0.8, linestyle=style)
    for label, colour, several, held, points in groups(rows, view):
        ax.scatter([p[0] for p in points], [p[1] for p in points], c=colour, marker="^" if several else "o",
                   s=70 if held else 30, edgecolors="black" if held else "none", linewidths=1.5, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_xlabel("measured seconds per step")
    ax.set_ylabel("predicted seconds per step")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out, format="png")
    plt.close(fig)


def plot_gnuplot(rows, view, out, size, title):
    low, high = axis_range(rows, view)
    script = []
    curves = [f"x with lines linecolor rgb 'black' title 'predicted = measured'",
              "1.1 * x with lines dashtype 2 linecolor rgb 'grey' notitle",
              "x / 1.1 with lines dashtype 2 linecolor rgb 'grey' notitle"]
    for index, (label, colour, several, held, points) in enumerate(groups(rows, view)):
        script.append(f"$g{index} << EOD")
        script += [f"{m!r} {p!r}" for m, p in points]
        script.append("EOD")
        point_type = 9 if several else 7
        curves.append(f"$g{index} using 1:2 with points pointtype {point_type} pointsize {1.6 if held else 1.0} "
                      f"linecolor rgb '{colour}' title {gnuplot_string(label)}")
    script += [
        f'if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {{ set terminal pngcairo size {size[0]},{size[1]} }} '
        f"else {{ set terminal png size {size[0]},{size[1]} }}",
        f"set output {gnuplot_string(out)}",
        f"set title {gnuplot_string(title)} noenhanced",
        "set logscale xy",
        f"set xrange [{low!r}:{high!r}]",
        f"set yrange [{low!r}:{high!r}]",
        "set xlabel 'measured seconds per step'",
        "set ylabel 'predicted seconds per step'",
        "set grid",
        "set key top left noenhanced",
        "plot " + ", ".join(curves),
        "unset output",
    ]
    run_gnuplot(script)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("predictions", help="CSV written by cellgraph perfmodel fit/validate --predictions")
    parser.add_argument("-o", "--output", help="PNG to write (default: the CSV's name with .png)")
    parser.add_argument("--view", choices=VIEWS, help="the view to plot (default: the fit's preferred)")
    parser.add_argument("--size", type=parse_size, default=(900, 800), help="WIDTHxHEIGHT in pixels (900x800)")
    parser.add_argument("--title", help="plot title (default: the file name and the agreement figures)")
    args = parser.parse_args()

    out = args.output or os.path.splitext(args.predictions)[0] + ".png"
    temp = f"{out}.tmp.{os.getpid()}"
    try:
        rows = read_predictions(args.predictions)
        view = args.view or rows[0]["preferred"]
        if view not in VIEWS:
            raise InputError(f"{args.predictions}:2: preferred view '{view}' is not one of {', '.join(VIEWS)}")
        title = args.title or f"{os.path.basename(args.predictions)}\n{summary(rows, view)}"
        plotter, why = choose_plotter()
        if plotter is None:
            print(f"plot_perfmodel: {why}", file=sys.stderr)
            return NO_PLOTTER
        draw = plot_matplotlib if plotter == "matplotlib" else plot_gnuplot
        draw(rows, view, temp, args.size, title)
        os.replace(temp, out)
    except (InputError, OSError) as e:
        print(f"plot_perfmodel: {e}", file=sys.stderr)
        return 1
    finally:
        if os.path.exists(temp):
            os.remove(temp)
    print(f"plot_perfmodel: wrote {out} with {plotter}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
