#!/usr/bin/env python3
"""What running from Python costs: one SIR case run by `cellgraph run` and by the Python module,
in the same process tree, timed both ways (the stepping alone, and the whole job: graph, compile,
run). Prints a Markdown table for BENCHMARKS.md.

    PYTHONPATH=build/python python3 bench/python_overhead.py --cli build/cellgraph
"""
import argparse
import re
import statistics
import subprocess
import tempfile
import time

import cellgraph as cg


def python_run(args, stats):
    start = time.perf_counter()
    graph = cg.Graph.generate(args.graph, seed=1)
    sim = cg.Simulation(graph, model="sir", params={"beta": 0.2, "tau": 3}, seed=7, backend=args.backend)
    sim.set_state(cg.random_cells(graph, count=100, seed=7))
    stepping = time.perf_counter()
    sim.run(args.steps, stats_every=1, stats_csv=stats)
    end = time.perf_counter()
    return end - stepping, end - start, graph.num_vertices, sim.backend


def cli_run(args, stats):
    command = [args.cli, "run", "--generate", args.graph, "--model", "sir", "--param", "beta=0.2", "--param",
               "tau=3", "--seed", "7", "--fill-count", "100", "--steps", str(args.steps), "--backend", args.backend,
               "--stats", stats]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    whole = time.perf_counter() - start
    stepping = float(re.search(r" in ([0-9.e+-]+) s", done.stdout).group(1))
    return stepping, whole


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", default="build/cellgraph")
    parser.add_argument("--graph", default="er:1000000:4", help="a --generate source (default: 10^6 vertices)")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    cli_steps, cli_whole, py_steps, py_whole = [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeats):  # interleaved, so that a slow spell of the machine hits both
            stepping, whole = cli_run(args, f"{folder}/cli.csv")
            cli_steps.append(stepping)
            cli_whole.append(whole)
            stepping, whole, vertices, backend = python_run(args, f"{folder}/py.csv")
            py_steps.append(stepping)
            py_whole.append(whole)
        same = open(f"{folder}/cli.csv").read() == open(f"{folder}/py.csv").read()
    median = statistics.median
    print(f"SIR on --generate {args.graph} ({vertices} vertices), {args.steps} steps, statistics every step, "
          f"{backend}; median of {args.repeats}; statistics files identical: {same}\n")
    print("| | CLI s | Python s | Python against the CLI |")
    print("|---|---|---|---|")
    for what, cli_s, py_s in (("stepping (run)", cli_steps, py_steps), ("whole job", cli_whole, py_whole)):
        print(f"| {what} | {median(cli_s):.3f} | {median(py_s):.3f} | {median(py_s) / median(cli_s) - 1:+.1%} |")
    if not same:
        raise SystemExit("the statistics differ")


if __name__ == "__main__":
    main()
