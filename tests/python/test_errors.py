# Library errors reach Python as cellgraph.Error (a RuntimeError) with the CLI's words.
import numpy as np
import pytest

import cellgraph as cg


def cli_error(cli, *args):
    done = cli("run", *args, "--steps", 1, "--backend", "cpu", check=False)
    assert done.returncode != 0
    return done.stderr


@pytest.mark.parametrize("python_call,cli_args", [
    (lambda d: cg.Graph.read(d / "graphs/mtx/LAGraph/malformed/mangled2.mtx"),
     lambda d: ["--graph", d / "graphs/mtx/LAGraph/malformed/mangled2.mtx"]),
    (lambda d: cg.Graph.read(d / "no-such-file.graph"), lambda d: ["--graph", d / "no-such-file.graph"]),
    (lambda d: cg.Graph.grid("0x5"), lambda d: ["--grid", "0x5"]),
    (lambda d: cg.Graph.grid((8, 8), neighborhood="diagonal"), lambda d: ["--grid", "8x8", "--neighborhood",
                                                                         "diagonal"]),
    (lambda d: cg.Simulation(cg.Graph.grid((8, 8)), model="nosuchmodel"),
     lambda d: ["--grid", "8x8", "--model", "nosuchmodel"]),
    (lambda d: cg.Simulation(cg.Graph.grid((8, 8)), model="sir", params={"beta": 2}),
     lambda d: ["--grid", "8x8", "--model", "sir", "--param", "beta=2"]),
    (lambda d: cg.Simulation(cg.Graph.grid((8, 8)), model="sir", params={"bta": 0.2}),
     lambda d: ["--grid", "8x8", "--model", "sir", "--param", "bta=0.2"]),
    (lambda d: cg.Simulation(cg.Graph.grid((8, 8)), params={"rule": "B3x/S23"}),
     lambda d: ["--grid", "8x8", "--rule", "B3x/S23"]),
    (lambda d: cg.Simulation(cg.Graph.grid((8, 8)), update="alpha:2"),
     lambda d: ["--grid", "8x8", "--update", "alpha:2"]),
])
def test_errors_carry_the_cli_message(cli, data, python_call, cli_args):
    with pytest.raises(cg.Error) as raised:
        python_call(data)
    assert isinstance(raised.value, RuntimeError)
    message = str(raised.value)
    assert message and message in cli_error(cli, *cli_args(data))


def test_python_values_are_checked():
    graph = cg.Graph.grid((6, 6))
    sim = cg.Simulation(graph, model="sir", backend="cpu")
    with pytest.raises(cg.Error, match="one state per vertex"):
        sim.set_state(np.zeros(35))
    with pytest.raises(cg.Error, match="vertex 3 has state 3"):
        sim.set_state(np.where(np.arange(36) == 3, 3, 0))
    with pytest.raises(cg.Error, match="no vertex is named"):
        sim.set_state({"nobody": 1})
    with pytest.raises(cg.Error, match="backend must be auto, cpu, reference or cuda"):
        cg.Simulation(graph, backend="tpu")
    with pytest.raises(cg.Error, match="edge 1 names vertex 9"):
        cg.Graph.from_edges([[0, 1], [1, 9]], num_vertices=5)
    with pytest.raises(cg.Error, match="stats_every"):
        sim.run(3, stats_every=0)
    with pytest.raises(cg.Error, match="replicas must be at least 1"):
        cg.Ensemble(graph, model="sir", replicas=0)
    with pytest.raises(cg.Error, match="beta"):
        cg.Ensemble(graph, model="sir", sweep={"beta": [0.1, 1.5]})


def test_an_output_may_not_overwrite_another(tmp_path):
    sim = cg.Simulation(cg.Graph.grid((6, 6)), backend="cpu")
    with pytest.raises(cg.Error):
        sim.run(2, png=tmp_path / "same", states_out=tmp_path / "same")
    assert sim.step == 0


def test_a_failed_construction_leaves_an_object_that_prints():
    # pytest and IPython print the locals of a traceback, the half-made object among them.
    graph = cg.Graph.grid((6, 6))
    for make in (lambda: cg.Simulation(graph, backend="tpu"), lambda: cg.Ensemble(graph, replicas=0)):
        with pytest.raises(cg.Error) as failure:
            make()
        frame = failure.tb
        while frame is not None and "self" not in frame.tb_frame.f_locals:
            frame = frame.tb_next
        assert frame is not None
        assert "not constructed" in repr(frame.tb_frame.f_locals["self"])
