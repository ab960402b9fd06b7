# networkx nodes name the vertices both ways: states set and read by node, state files written
# with their labels as the CLI writes them for a graph file that names its vertices.
import random

import networkx as nx
import numpy as np

import cellgraph as cg


def named_edge_list(tmp_path):
    """Zachary's karate club with its members named in a shuffled order, as an edge list file."""
    club = nx.karate_club_graph()
    names = [f"member-{k:02d}" for k in range(club.number_of_nodes())]
    random.Random(5).shuffle(names)
    path = tmp_path / "club.txt"
    path.write_text("".join(f"{names[u]} {names[v]}\n" for u, v in club.edges()))
    return path


def test_a_networkx_graph_runs_as_the_cli_runs_its_edge_list(cli, tmp_path):
    path = named_edge_list(tmp_path)
    graph = cg.Graph.from_networkx(nx.read_edgelist(path))  # nodes in order of first appearance, as the CLI
    patient = graph.nodes[7]
    sim = cg.Simulation(graph, model="sir", params={"beta": 0.4, "tau": 2}, seed=3, backend="cpu")
    sim.set_state({patient: 1})
    sim.run(15, states_out=tmp_path / "py.states")
    cli("run", "--graph", path, "--model", "sir", "--param", "beta=0.4", "--param", "tau=2", "--seed", 3, "--cells",
        patient, "--steps", 15, "--backend", "cpu", "--states-out", tmp_path / "cli.states")
    assert (tmp_path / "py.states").read_bytes() == (tmp_path / "cli.states").read_bytes()
    lines = (tmp_path / "cli.states").read_text().splitlines()
    by_name = dict(line.rsplit(" ", 1) for line in lines if not line.startswith("#"))
    assert {name: str(state) for name, state in sim.state_dict().items()} == by_name


def test_nodes_of_any_kind_round_trip():
    lattice = nx.grid_2d_graph(12, 9)  # nodes are (x, y) tuples
    graph = cg.Graph.from_networkx(lattice)
    assert graph.nodes == list(lattice.nodes())
    sim = cg.Simulation(graph, model="sir", params={"beta": 1.0, "tau": 1}, backend="cpu")
    sim.set_state({(5, 4): 1})
    sim.run(1)
    states = sim.state_dict()
    assert list(states) == list(lattice.nodes())
    assert states[(5, 4)] == 2  # recovered after its one step
    assert {node for node, s in states.items() if s == 1} == set(lattice.neighbors((5, 4)))


def test_labels_read_back_as_a_state_file(tmp_path):
    novel = nx.relabel_nodes(nx.les_miserables_graph(), {"Valjean": "Jean Valjean"})
    graph = cg.Graph.from_networkx(novel)
    sim = cg.Simulation(graph, model="sis", params={"beta": 0.3, "gamma": 0.2}, seed=6, backend="cpu")
    sim.set_state(cg.random_cells(graph, count=10, seed=6))
    sim.run(10, states_out=tmp_path / "s.txt")
    assert np.array_equal(cg.read_states(graph, tmp_path / "s.txt"), sim.state())
    assert '"Jean Valjean" ' in (tmp_path / "s.txt").read_text()  # a label with a blank, quoted


def test_mixed_node_kinds_that_print_alike_still_map_back():
    graph = cg.Graph.from_networkx(nx.Graph([(1, "1"), ("1", 2)]))
    assert graph.labels is None and graph.nodes == [1, "1", 2]
    sim = cg.Simulation(graph, model="sir", params={"beta": 1.0, "tau": 2}, backend="cpu")
    sim.set_state({"1": 1})
    sim.run(1)
    assert sim.state_dict() == {1: 1, "1": 1, 2: 1}
