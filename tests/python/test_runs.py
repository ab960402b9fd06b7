# A run from Python is the CLI's run: the same final states (the --states-out file byte for byte)
# and the same statistics, for every kind of source, several models and every update mode.
import csv

import numpy as np
import pytest

import cellgraph as cg

METIS = "graphs/metis/github-KarypisLab-METIS/4elt.graph"


def source_cases(data):
    """(name, Python graph, the CLI's source flags)."""
    return [
        ("grid 2D", cg.Graph.grid((64, 48)), ["--grid", "64x48"]),
        ("grid 3D von Neumann fixed", cg.Graph.grid("16x12x8", neighborhood="vonneumann", boundary="fixed:0"),
         ["--grid", "16x12x8", "--neighborhood", "vonneumann", "--boundary", "fixed:0"]),
        ("METIS graph", cg.Graph.read(data / METIS), ["--graph", data / METIS]),
        ("Matrix Market", cg.Graph.read(data / "graphs/mtx/NWGraph/football.mtx"),
         ["--graph", data / "graphs/mtx/NWGraph/football.mtx"]),
        ("GraphML", cg.Graph.read(data / "graphs/graphml/florentine_families.graphml"),
         ["--graph", data / "graphs/graphml/florentine_families.graphml"]),
        ("edge list", cg.Graph.read(data / "graphs/snap/ca-GrQc.prefix.txt"),
         ["--graph", data / "graphs/snap/ca-GrQc.prefix.txt"]),
        ("Gmsh mesh", cg.Graph.read_mesh(data / "meshes/t5_3d_tet_v41.msh"),
         ["--mesh", data / "meshes/t5_3d_tet_v41.msh"]),
        ("nodal mesh", cg.Graph.read_mesh(data / "meshes/t1_2d_tri_v41.msh", graph="nodal"),
         ["--mesh", data / "meshes/t1_2d_tri_v41.msh", "--mesh-graph", "nodal"]),
        ("rgg", cg.Graph.generate("rgg:3000:8", seed=3), ["--generate", "rgg:3000:8", "--graph-seed", 3]),
        ("R-MAT", cg.Graph.generate("rmat:10", seed=2), ["--generate", "rmat:10", "--graph-seed", 2]),
        ("Erdos-Renyi", cg.Graph.generate("er:2000:3"), ["--generate", "er:2000:3"]),
    ]


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def check_same_run(cli, tmp_path, graph, source_flags, model, params, update, steps, seed=7, fill=0.3):
    """Runs the case both ways and compares states, state files and statistics."""
    sim = cg.Simulation(graph, model=model, params=params, seed=seed, update=update, backend="cpu")
    sim.set_state(cg.random_cells(graph, density=fill, seed=seed))
    stats = sim.run(steps, stats_every=3, states_out=tmp_path / "py.states", stats_csv=tmp_path / "py.csv")
    flags = [*source_flags, "--model", model, "--seed", seed, "--fill", fill, "--steps", steps, "--backend", "cpu",
             "--stats", tmp_path / "cli.csv", "--stats-every", 3, "--states-out", tmp_path / "cli.states"]
    flags += [arg for name, value in params.items() for arg in ("--param", f"{name}={value}")]
    if update:
        flags += ["--update", update]
    cli("run", *flags)
    assert (tmp_path / "py.states").read_bytes() == (tmp_path / "cli.states").read_bytes()
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    header, rows = read_csv(tmp_path / "cli.csv")
    assert list(stats) == header
    for k, column in enumerate(header):
        assert stats[column].tolist() == pytest.approx([float(row[k]) for row in rows], rel=1e-12), column
    if graph.labels is None:  # the file holds one state a line, in vertex order
        expected = np.loadtxt(tmp_path / "cli.states", dtype=np.int64, ndmin=1)
        assert np.array_equal(sim.state(), expected)
    assert sim.step == steps


@pytest.mark.parametrize("case", range(11))
def test_every_source_runs_as_the_cli(cli, data, tmp_path, case):
    name, graph, flags = source_cases(data)[case]
    model, params = ("lifelike", {"rule": "B36/S23"}) if graph.grid_shape else ("sir", {"beta": 0.3, "tau": 3})
    check_same_run(cli, tmp_path, graph, flags, model, params, None, 12)


@pytest.mark.parametrize("model,params,update", [
    ("sis", {"beta": 0.2, "gamma": 0.3}, None),
    ("forestfire", {"p": 0.05, "f": 0.001}, "alpha:0.6"),
    ("ising", {"T": 2.1}, None),
    ("ising", {"T": 2.1, "dynamics": "glauber"}, "sync"),
    ("greenberghastings", {"threshold": 2, "refractory": 3}, None),
    ("lifelike", {"rule": "/2/3", "p": 0.7}, "colored"),
    ("rulenumber", {"kind": "outer", "rule": 224}, None),
])
def test_models_and_update_modes_run_as_the_cli(cli, tmp_path, model, params, update):
    graph = cg.Graph.generate("rgg:2000:10", seed=5)
    check_same_run(cli, tmp_path, graph, ["--generate", "rgg:2000:10", "--graph-seed", 5], model, params, update, 20)


def test_cloud_starts_its_other_variables_as_the_cli(cli, tmp_path):
    graph = cg.Graph.grid((24, 20, 12), neighborhood="cloud", boundary="open")
    check_same_run(cli, tmp_path, graph, ["--grid", "24x20x12"], "cloud", {"hum0": 0.3, "act0": 0.05}, None, 15,
                   fill=0.01)


def test_a_pattern_starts_from_itself_with_its_rule(cli, data, tmp_path):
    pattern = data / "patterns/life/acorn.rle"
    graph = cg.Graph.pattern(pattern, shape=(96, 96))
    sim = cg.Simulation(graph, backend="cpu")
    assert sim.model == "lifelike" and sim.census()[1] == 7  # the acorn's seven cells
    sim.run(60, rle=tmp_path / "py.rle", states_out=tmp_path / "py.states")
    cli("run", "--pattern", pattern, "--grid", "96x96", "--steps", 60, "--backend", "cpu", "--rle",
        tmp_path / "cli.rle", "--states-out", tmp_path / "cli.states")
    assert (tmp_path / "py.rle").read_bytes() == (tmp_path / "cli.rle").read_bytes()
    assert (tmp_path / "py.states").read_bytes() == (tmp_path / "cli.states").read_bytes()


def test_a_golly_rule_file_pattern_runs_golly(cli, data, tmp_path):
    pattern = data / "patterns/golly-rules/wireworld-circuit.rle"
    graph = cg.Graph.pattern(pattern)
    sim = cg.Simulation(graph, backend="cpu")
    assert sim.model == "golly"
    sim.run(25, states_out=tmp_path / "py.states")
    cli("run", "--pattern", pattern, "--steps", 25, "--backend", "cpu", "--states-out", tmp_path / "cli.states")
    assert (tmp_path / "py.states").read_bytes() == (tmp_path / "cli.states").read_bytes()


def test_runs_continue_where_they_stopped(tmp_path):
    graph = cg.Graph.grid((40, 40))
    start = cg.random_cells(graph, density=0.35, seed=4)
    whole = cg.Simulation(graph, seed=4, backend="cpu")
    whole.set_state(start)
    whole.run(30)
    halves = cg.Simulation(graph, seed=4, backend="cpu")
    halves.set_state(start)
    first = halves.run(13, checkpoint=tmp_path / "at13.ckpt")
    halves.run(17)
    assert np.array_equal(whole.state(), halves.state())
    assert first["step"].tolist() == list(range(14))
    restarted = cg.Simulation(graph, seed=4, backend="cpu")
    restarted.load_checkpoint(tmp_path / "at13.ckpt")
    assert restarted.step == 13
    restarted.run(17)
    assert np.array_equal(whole.state(), restarted.state())


def test_writers_write_pictures_and_vtk(tmp_path):
    graph = cg.Graph.grid((32, 32))
    sim = cg.Simulation(graph, seed=2, backend="cpu")
    sim.set_state(cg.random_cells(graph, density=0.4, seed=2))
    sim.run(10, png=tmp_path / "final.png", gif=tmp_path / "run.gif", frame_every=5, vtk=tmp_path / "life",
            vtk_every=5)
    assert (tmp_path / "final.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "run.gif").read_bytes()[:6] == b"GIF89a"
    assert sorted(p.name for p in tmp_path.glob("life_*.vti")) == ["life_000000.vti", "life_000005.vti",
                                                                   "life_000010.vti"]
    assert (tmp_path / "life.pvd").exists()


def test_an_ensemble_member_is_the_plain_run_with_its_seed():
    graph = cg.Graph.generate("er:3000:3", seed=9)
    ensemble = cg.Ensemble(graph, model="sir", params={"tau": 3}, sweep={"beta": [0.2, 0.4]}, replicas=3, seed=11)
    ensemble.fill(count=5)
    stats = ensemble.run(25, stats_every=5)
    assert ensemble.members == 6 and ensemble.swept == ["beta"]
    assert stats["beta"][:6] == ["0.2", "0.2", "0.2", "0.4", "0.4", "0.4"]
    for member in (0, 4):
        plain = cg.Simulation(graph, model="sir", params={"tau": 3, "beta": [0.2, 0.4][member // 3]},
                              seed=ensemble.seed(member), backend="cpu")
        plain.set_state(cg.random_cells(graph, count=5, seed=ensemble.seed(member)))
        plain_stats = plain.run(25, stats_every=5)
        assert np.array_equal(plain.state(), ensemble.state(member))
        rows = stats["replica"] + 3 * stats["point"] == member
        assert stats["R"][rows].tolist() == plain_stats["R"].tolist()


def test_the_fast_cpu_backend_runs_as_the_reference():
    graph = cg.Graph.generate("rgg:20000:10", seed=8)
    runs = []
    for backend in ("reference", "cpu"):
        sim = cg.Simulation(graph, model="sir", params={"beta": 0.25, "tau": 4}, seed=3, backend=backend)
        assert sim.backend == backend
        sim.set_state(cg.random_cells(graph, count=30, seed=3))
        runs.append((sim.run(40), sim.state()))
    assert np.array_equal(runs[0][1], runs[1][1])
    assert all(np.array_equal(runs[0][0][k], runs[1][0][k]) for k in runs[0][0])


@pytest.mark.skipif(not cg.cuda_available(), reason="needs the CUDA backend and a GPU")
def test_cuda_runs_as_the_cpu(tmp_path):
    graph = cg.Graph.generate("rgg:20000:10", seed=8)
    runs = []
    for backend in ("reference", "cuda"):
        sim = cg.Simulation(graph, model="sir", params={"beta": 0.25, "tau": 4}, seed=3, backend=backend)
        sim.set_state(cg.random_cells(graph, count=30, seed=3))
        runs.append((sim.run(40), sim.state()))
    assert np.array_equal(runs[0][1], runs[1][1])
    assert all(np.array_equal(runs[0][0][k], runs[1][0][k]) for k in runs[0][0])
