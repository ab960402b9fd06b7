"""What the plotting tools (plot_stats.py, plot_perfmodel.py) share: the choice between
matplotlib and gnuplot, gnuplot's quoting and invocation, the --size option, the error type."""

import argparse
import importlib.util
import os
import shutil
import subprocess

NO_PLOTTER = 3  # exit status when neither matplotlib nor gnuplot is there


class InputError(Exception):
    pass


def choose_plotter():
    """('matplotlib' or 'gnuplot', '') or (None, why): matplotlib first; CELLGRAPH_PLOTTER forces one."""
    forced = os.environ.get("CELLGRAPH_PLOTTER", "")
    if forced not in ("", "matplotlib", "gnuplot"):
        raise InputError("CELLGRAPH_PLOTTER must be matplotlib or gnuplot")
    has_matplotlib = importlib.util.find_spec("matplotlib") is not None
    has_gnuplot = shutil.which("gnuplot") is not None
    if forced == "matplotlib" and not has_matplotlib:
        return None, "CELLGRAPH_PLOTTER=matplotlib, but Python cannot import matplotlib"
    if forced == "gnuplot" and not has_gnuplot:
        return None, "CELLGRAPH_PLOTTER=gnuplot, but gnuplot is not on PATH"
    if forced:
        return forced, ""
    if has_matplotlib:
        return "matplotlib", ""
    if has_gnuplot:
        return "gnuplot", ""
    return None, "needs matplotlib (python3-matplotlib) or gnuplot (gnuplot-nox); neither was found"


def gnuplot_string(text):
    """A double-quoted gnuplot string: backslashes and quotes escaped, line breaks kept."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def run_gnuplot(script):
    result = subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, capture_output=True)
    if result.returncode != 0:
        raise InputError("gnuplot failed: " + result.stderr.strip())


def parse_size(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not WIDTHxHEIGHT")
    if not (100 <= w <= 8000 and 100 <= h <= 8000):
        raise argparse.ArgumentTypeError("width and height must be from 100 to 8000")
    return w, h
