#!/usr/bin/env python3
"""Plots a cellgraph statistics CSV (`cellgraph run --stats`: step,state_0,state_1,... and any
further columns) into a PNG, one line per column against the step.

By default every column but state_0 is drawn (the dead cells would flatten the others);
--columns picks columns by name. Draws with matplotlib when Python can import it, otherwise with
gnuplot (Debian: gnuplot-nox); CELLGRAPH_PLOTTER=matplotlib or =gnuplot forces one.

    tools/plot_stats.py stats.csv                  # writes stats.png
    tools/plot_stats.py stats.csv -o pop.png --columns state_1 --log

Exit status: 0 written; 1 bad input or options; 3 no plotter found. The PNG is written to a
temporary file and renamed, so a failure leaves nothing behind.
"""
import argparse
import csv
import os
import sys

from plotting import NO_PLOTTER, InputError, choose_plotter, gnuplot_string, parse_size, run_gnuplot


def read_stats(path):
    """Returns (column names, rows of floats), the step first; raises InputError."""
    try:
        with open(path, newline="") as f:
            lines = list(csv.reader(f))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")
    if not lines or not lines[0] or lines[0][0] != "step":
        raise InputError(f"{path}:1: expected a header starting with 'step'")
    header = lines[0]
    rows = []
    for number, fields in enumerate(lines[1:], start=2):
        if len(fields) != len(header):
            raise InputError(f"{path}:{number}: {len(fields)} values for {len(header)} columns")
        try:
            rows.append([float(v) for v in fields])
        except ValueError:
            raise InputError(f"{path}:{number}: a value is not a number")
    if not rows:
        raise InputError(f"{path}: no rows below the header")
    return header, rows


def choose_columns(header, requested):
    if requested:
        names = [n for n in requested.split(",") if n]
        for n in names:
            if n not in header[1:]:
                raise InputError(f"no column '{n}' (the file has {', '.join(header[1:])})")
        return names
    names = [n for n in header[1:] if n != "state_0"]
    return names or header[1:]


def plot_matplotlib(header, rows, columns, out, size, title, log):
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    dpi = 100
    fig, ax = plt.subplots(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    steps = [r[0] for r in rows]
    for name in columns:
        i = header.index(name)
        ax.plot(steps, [r[i] for r in rows], label=name)
    ax.set_xlabel("step")
    ax.set_ylabel("cells")
    if log:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, format="png")
    plt.close(fig)


def plot_gnuplot(header, rows, columns, out, size, title, log):
    # The data travel inside the script as a datablock, so no file name needs quoting but `out`.
    script = ["$stats << EOD"]
    script += [" ".join(repr(v) for v in r) for r in rows]
    script += [
        "EOD",
        f'if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {{ set terminal pngcairo size {size[0]},{size[1]} }} '
        f"else {{ set terminal png size {size[0]},{size[1]} }}",
        f"set output {gnuplot_string(out)}",
        f"set title {gnuplot_string(title)} noenhanced",
        "set xlabel 'step'",
        "set ylabel 'cells'",
        "set grid",
        "set key noenhanced",
    ]
    if log:
        script.append("set logscale y")
    curves = [f"$stats using 1:{header.index(n) + 1} with lines linewidth 2 title {gnuplot_string(n)}"
              for n in columns]
    script.append("plot " + ", ".join(curves))
    script.append("unset output")
    run_gnuplot(script)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stats", help="statistics CSV written by cellgraph run --stats")
    parser.add_argument("-o", "--output", help="PNG to write (default: the CSV's name with .png)")
    parser.add_argument("--columns", help="comma-separated column names (default: all but step and state_0)")
    parser.add_argument("--log", action="store_true", help="logarithmic y axis")
    parser.add_argument("--size", type=parse_size, default=(1000, 600), help="WIDTHxHEIGHT in pixels (1000x600)")
    parser.add_argument("--title", help="plot title (default: the CSV's file name)")
    args = parser.parse_args()

    out = args.output or os.path.splitext(args.stats)[0] + ".png"
    temp = f"{out}.tmp.{os.getpid()}"
    try:
        header, rows = read_stats(args.stats)
        columns = choose_columns(header, args.columns)
        plotter, why = choose_plotter()
        if plotter is None:
            print(f"plot_stats: {why}", file=sys.stderr)
            return NO_PLOTTER
        draw = plot_matplotlib if plotter == "matplotlib" else plot_gnuplot
        draw(header, rows, columns, temp, args.size, args.title or os.path.basename(args.stats), args.log)
        os.replace(temp, out)
    except (InputError, OSError) as e:
        print(f"plot_stats: {e}", file=sys.stderr)
        return 1
    finally:
        if os.path.exists(temp):
            os.remove(temp)
    print(f"plot_stats: wrote {out} with {plotter}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
