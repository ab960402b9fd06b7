#!/usr/bin/env python3
"""Plots a cellgraph statistics CSV (`cellgraph run --stats`: step, the population per state,
then the model's observables) into a PNG against the step, one panel per group of columns with
its own axis: the populations (whole numbers) together, each observable (Ising's magnetization
and energy, MCA's energies, Vicsek's order) in a panel of its own, so none flattens another.

By default every column but state_0 is drawn (the dead cells would flatten the others);
--columns picks columns by name. Draws with matplotlib when Python can import it, otherwise with
gnuplot (Debian: gnuplot-nox); CELLGRAPH_PLOTTER=matplotlib or =gnuplot forces one.

    tools/plot_stats.py stats.csv                  # writes stats.stats.png
    tools/plot_stats.py stats.csv -o pop.png --columns state_1 --log

An ensemble's summary (`cellgraph run --summary`: the swept parameters, replicas, step, then
COLUMN_mean, _sd, _se, _low95, _high95) is drawn as the mean with its 95% band, a curve per
sweep point and a panel per column; --columns names the columns without their suffixes.

The default name, NAME.stats.png, stays clear of the pictures a run writes (NAME.png). An
existing file is replaced only if this tool wrote it (it marks its PNGs). Exit status: 0
written; 1 bad input or options, or a file in the way; 3 no plotter found. The PNG is written
to a temporary file and renamed, so a failure leaves nothing behind.
"""
import argparse
import csv
import os
import struct
import sys
import zlib

from plotting import NO_PLOTTER, InputError, choose_plotter, gnuplot_string, parse_size, run_gnuplot


def read_lines(path):
    try:
        with open(path, newline="") as f:
            return list(csv.reader(f))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")


def is_summary(lines):
    return bool(lines) and "replicas" in lines[0] and "step" in lines[0]


def read_summary(path, lines):
    """An ensemble summary as (sweep names, column bases, {point: rows}), each row a dict of
    floats keyed by the header's names; raises InputError."""
    header = lines[0]
    at = header.index("replicas")
    if at + 1 >= len(header) or header[at + 1] != "step":
        raise InputError(f"{path}:1: expected 'replicas,step' after the swept parameters")
    sweep = header[:at]
    bases = [name[:-5] for name in header[at + 2:] if name.endswith("_mean")]
    points = {}
    for number, fields in enumerate(lines[1:], start=2):
        if len(fields) != len(header):
            raise InputError(f"{path}:{number}: {len(fields)} values for {len(header)} columns")
        try:
            row = {name: float(value) for name, value in zip(header[at:], fields[at:])}
        except ValueError:
            raise InputError(f"{path}:{number}: a value is not a number")
        points.setdefault(tuple(fields[:at]), []).append(row)
    if not points:
        raise InputError(f"{path}: no rows below the header")
    return sweep, bases, points


def summary_columns(bases, requested):
    if requested:
        names = [n for n in requested.split(",") if n]
        for n in names:
            if n not in bases:
                raise InputError(f"no column '{n}' (the summary has {', '.join(bases)})")
        return names
    return [n for n in bases if n != "state_0"] or bases


def point_label(sweep, point):
    return ", ".join(f"{n}={v}" for n, v in zip(sweep, point)) or "mean"


def plot_summary_gnuplot(sweep, names, points, out, size, title, log):
    script = []
    for i, rows in enumerate(points.values()):
        script.append(f"$p{i} << EOD")
        script += [" ".join(repr(v) for v in [r["step"]] + [r[n + s] for n in names
                                                            for s in ("_mean", "_low95", "_high95")])
                   for r in rows]
        script.append("EOD")
    script += [
        f'if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {{ set terminal pngcairo size {size[0]},{size[1]} }} '
        f"else {{ set terminal png size {size[0]},{size[1]} }}",
        f"set output {gnuplot_string(out)}",
        f"set multiplot layout {len(names)},1 title {gnuplot_string(title + ' (mean and 95% interval)')} noenhanced",
        "set grid",
        "set key noenhanced",
        "set style fill transparent solid 0.25 noborder",
    ]
    if log:
        script.append("set logscale y")
    for number, name in enumerate(names):
        script.append(f"set ylabel {gnuplot_string(name)} noenhanced")
        script.append("set xlabel 'step'" if number == len(names) - 1 else "unset xlabel")
        curves = []
        for i, point in enumerate(points):
            mean = 2 + 3 * number
            curves.append(f"$p{i} using 1:{mean + 1}:{mean + 2} with filledcurves linecolor {i + 1} notitle")
            curves.append(f"$p{i} using 1:{mean} with lines linewidth 2 linecolor {i + 1} "
                          f"title {gnuplot_string(point_label(sweep, point))}")
        script.append("plot " + ", ".join(curves))
    script += ["unset multiplot", "unset output"]
    run_gnuplot(script)


def plot_summary(path, lines, requested, plotter, out, size, title, log):
    """The mean and 95% band of each column per sweep point."""
    sweep, bases, points = read_summary(path, lines)
    names = summary_columns(bases, requested)
    if plotter == "gnuplot":
        return plot_summary_gnuplot(sweep, names, points, out, size, title, log)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dpi = 100
    fig, axes = plt.subplots(len(names), 1, sharex=True, squeeze=False,
                             figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    for ax, name in zip(axes[:, 0], names):
        for point, rows in points.items():
            label = point_label(sweep, point)
            steps = [r["step"] for r in rows]
            line, = ax.plot(steps, [r[name + "_mean"] for r in rows], label=label)
            low, high = [r[name + "_low95"] for r in rows], [r[name + "_high95"] for r in rows]
            if not any(v != v for v in low + high):  # no band for a single replica (nan)
                ax.fill_between(steps, low, high, color=line.get_color(), alpha=0.25, linewidth=0)
        ax.set_ylabel(name)
        if log:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        if len(points) <= 12:
            ax.legend()
    axes[0, 0].set_title(title + " (mean and 95% interval)")
    axes[-1, 0].set_xlabel("step")
    fig.tight_layout()
    fig.savefig(out, format="png")
    plt.close(fig)


def read_stats(path):
    """Returns (column names, rows of floats), the step first; raises InputError."""
    lines = read_lines(path)
    if lines and "replica" in lines[0] and "seed" in lines[0]:
        raise InputError(f"{path} holds every member of an ensemble: plot its --summary file")
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


def panels(header, rows, columns):
    """[(y label, [column names])]: the columns of whole numbers (populations) in one panel,
    every other column in a panel of its own, in the file's order."""
    def whole(name):
        i = header.index(name)
        return all(r[i] == int(r[i]) for r in rows)
    counts = [n for n in columns if whole(n)]
    groups = [("cells", counts)] if counts else []
    return groups + [(n, [n]) for n in columns if n not in counts]


def plot_matplotlib(header, rows, groups, out, size, title, log):
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    dpi = 100
    fig, axes = plt.subplots(len(groups), 1, sharex=True, squeeze=False,
                             figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    steps = [r[0] for r in rows]
    for ax, (label, names) in zip(axes[:, 0], groups):
        for name in names:
            i = header.index(name)
            ax.plot(steps, [r[i] for r in rows], label=name)
        ax.set_ylabel(label)
        if log:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend()
    axes[0, 0].set_title(title)
    axes[-1, 0].set_xlabel("step")
    fig.tight_layout()
    fig.savefig(out, format="png")
    plt.close(fig)


def plot_gnuplot(header, rows, groups, out, size, title, log):
    # The data travel inside the script as a datablock, so no file name needs quoting but `out`.
    script = ["$stats << EOD"]
    script += [" ".join(repr(v) for v in r) for r in rows]
    script += [
        "EOD",
        f'if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {{ set terminal pngcairo size {size[0]},{size[1]} }} '
        f"else {{ set terminal png size {size[0]},{size[1]} }}",
        f"set output {gnuplot_string(out)}",
        f"set multiplot layout {len(groups)},1 title {gnuplot_string(title)} noenhanced",
        "set grid",
        "set key noenhanced",
    ]
    if log:
        script.append("set logscale y")
    for number, (label, names) in enumerate(groups):
        script.append(f"set ylabel {gnuplot_string(label)} noenhanced")
        script.append("set xlabel 'step'" if number == len(groups) - 1 else "unset xlabel")
        curves = [f"$stats using 1:{header.index(n) + 1} with lines linewidth 2 title {gnuplot_string(n)}"
                  for n in names]
        script.append("plot " + ", ".join(curves))
    script += ["unset multiplot", "unset output"]
    run_gnuplot(script)


MARK = b"Software\0cellgraph plot_stats.py"  # the tEXt chunk that says this tool wrote a PNG


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def mark_png(path):
    """Adds the tool's tEXt chunk after the PNG's header chunk."""
    with open(path, "rb") as f:
        png = f.read()
    after_header = 8 + 8 + struct.unpack(">I", png[8:12])[0] + 4  # signature, IHDR (length, type, data, CRC)
    with open(path, "wb") as f:
        f.write(png[:after_header] + png_chunk(b"tEXt", MARK) + png[after_header:])


def written_by_us(path):
    """Whether `path` is a PNG carrying the tool's mark."""
    try:
        with open(path, "rb") as f:
            png = f.read()
    except OSError:
        return False
    at = 8
    while png.startswith(b"\x89PNG", 0) and at + 8 <= len(png):
        length, kind = struct.unpack(">I", png[at:at + 4])[0], png[at + 4:at + 8]
        if kind == b"tEXt" and png[at + 8:at + 8 + length] == MARK:
            return True
        if kind == b"IDAT":
            return False
        at += 12 + length
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stats", help="statistics CSV written by cellgraph run --stats")
    parser.add_argument("-o", "--output", help="PNG to write (default: the CSV's name with .stats.png)")
    parser.add_argument("--columns", help="comma-separated column names (default: all but step and state_0)")
    parser.add_argument("--log", action="store_true", help="logarithmic y axis")
    parser.add_argument("--size", type=parse_size, default=(1000, 600), help="WIDTHxHEIGHT in pixels (1000x600)")
    parser.add_argument("--title", help="plot title (default: the CSV's file name)")
    args = parser.parse_args()

    out = args.output or os.path.splitext(args.stats)[0] + ".stats.png"
    temp = f"{out}.tmp.{os.getpid()}"
    try:
        if os.path.exists(out) and not written_by_us(out):
            raise InputError(f"{out} exists and was not written by plot_stats.py: give another name with -o")
        title = args.title or os.path.basename(args.stats)
        lines = read_lines(args.stats)
        plotter, why = choose_plotter()
        if is_summary(lines):
            if plotter is None:
                print(f"plot_stats: {why}", file=sys.stderr)
                return NO_PLOTTER
            plot_summary(args.stats, lines, args.columns, plotter, temp, args.size, title, args.log)
        else:
            header, rows = read_stats(args.stats)
            columns = choose_columns(header, args.columns)
            if plotter is None:
                print(f"plot_stats: {why}", file=sys.stderr)
                return NO_PLOTTER
            draw = plot_matplotlib if plotter == "matplotlib" else plot_gnuplot
            draw(header, rows, panels(header, rows, columns), temp, args.size, title, args.log)
        mark_png(temp)
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
