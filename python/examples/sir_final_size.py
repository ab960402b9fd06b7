#!/usr/bin/env python3
"""SIR outbreaks on an Erdos-Renyi graph built by networkx, over the transmission probability
beta, against Newman's (2002) bond-percolation result: with a fixed infectious period of tau
steps an edge transmits with probability T = 1 - (1 - beta)^tau, and on a Poisson graph of mean
degree c a large outbreak reaches the fraction S of the graph with S = 1 - exp(-c T S), from a
single case with probability S as well; below T = 1/c there are none.

    PYTHONPATH=build/python python3 python/examples/sir_final_size.py sir-final-size.png
"""
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import brentq  # noqa: E402

import cellgraph as cg  # noqa: E402

N, MEAN_DEGREE, TAU, REPLICAS, STEPS = 20_000, 3.0, 3, 200, 400


def newman_size(t, c=MEAN_DEGREE):
    """The giant outbreak's share of the graph: the root of S = 1 - exp(-c T S) above 0."""
    if c * t <= 1:
        return 0.0
    return brentq(lambda s: s - 1 + np.exp(-c * t * s), 1e-9, 1.0)


def main(picture):
    graph = cg.Graph.from_networkx(nx.fast_gnp_random_graph(N, MEAN_DEGREE / (N - 1), seed=1))
    betas = np.round(np.linspace(0.04, 0.40, 19), 3)
    ensemble = cg.Ensemble(graph, model="sir", params={"tau": TAU}, sweep={"beta": betas}, replicas=REPLICAS,
                           seed=1)
    ensemble.fill(count=1)  # one random case in each realization, drawn from its own seed
    start = time.perf_counter()
    stats = ensemble.run(STEPS, stats_every=STEPS)
    seconds = time.perf_counter() - start
    print(f"{ensemble.members} members x {N} vertices x {STEPS} steps in {seconds:.1f} s: "
          f"{ensemble.members * N * STEPS / seconds:.3g} replica-cell updates/s")
    last = stats["step"] == STEPS
    assert stats["I"][last].max() == 0, "some outbreaks still run: raise STEPS"
    size = stats["R"][last] / N
    point = stats["point"][last]

    t = 1 - (1 - betas) ** TAU
    large = size > 0.02  # minor outbreaks stay far below this on 2 x 10^4 vertices
    mean_large = np.array([size[(point == p) & large].mean() if np.any(large[point == p]) else 0.0
                           for p in range(len(betas))])
    share_large = np.array([large[point == p].mean() for p in range(len(betas))])

    curve_t = np.linspace(0, t.max(), 400)
    plt.figure(figsize=(7, 4.5))
    plt.plot(curve_t, [newman_size(x) for x in curve_t], "k-", label="Newman: S = 1 - exp(-c T S)")
    plt.plot(t, mean_large, "o", label="mean size of large outbreaks")
    plt.plot(t, share_large, "s", mfc="none", label="share of outbreaks that are large")
    plt.axvline(1 / MEAN_DEGREE, color="grey", ls=":", label="threshold T = 1/c")
    plt.xlabel("transmissibility T = 1 - (1 - beta)^tau")
    plt.ylabel("fraction")
    plt.title(f"SIR on a networkx Erdos-Renyi graph: n = {N}, c = 3, tau = {TAU}, {REPLICAS} runs a point",
              fontsize=10)
    plt.legend(loc="upper left", fontsize=8)
    plt.tight_layout()
    plt.savefig(picture, dpi=110)
    for b, x, m, s in zip(betas, t, mean_large, share_large):
        print(f"beta {b:.3f}  T {x:.3f}  Newman {newman_size(x):.3f}  large outbreaks: size {m:.3f}, share {s:.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "sir-final-size.png")
