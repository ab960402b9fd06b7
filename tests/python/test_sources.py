# Graphs from files and from Python objects, checked against readers and generators that share
# no code with cellgraph: networkx and SciPy.
import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse

import cellgraph as cg


def edge_set(graph):
    """Undirected edges {(u, v), u < v} of a cellgraph graph (grid boundary slots left out)."""
    offsets, neighbors = graph.csr()
    edges = set()
    for v in range(graph.num_vertices):
        for u in neighbors[offsets[v]:offsets[v + 1]].tolist():
            if u != 0xFFFFFFFF:
                edges.add((min(u, v), max(u, v)))
    return edges


def test_matrix_market_matches_scipy(data):
    path = data / "graphs/mtx/LAGraph/jagmesh7.mtx"
    matrix = scipy.sparse.coo_matrix(scipy.io.mmread(str(path)))
    expected = {(min(i, j), max(i, j)) for i, j in zip(matrix.row.tolist(), matrix.col.tolist()) if i != j}
    graph = cg.Graph.read(path)
    assert graph.num_vertices == matrix.shape[0]
    assert edge_set(graph) == expected


def test_graphml_matches_networkx_with_its_node_ids(data):
    path = data / "graphs/graphml/florentine_families.graphml"
    reference = nx.read_graphml(path)
    graph = cg.Graph.read(path)
    assert graph.labels == list(reference.nodes())
    index = {name: v for v, name in enumerate(graph.labels)}
    assert edge_set(graph) == {tuple(sorted((index[u], index[v]))) for u, v in reference.edges()}


def test_metis_file_matches_its_own_lines(data):
    path = data / "graphs/metis/github-KarypisLab-METIS/4elt.graph"
    lines = [line for line in path.read_text().splitlines() if not line.startswith("%")]
    n, m = map(int, lines[0].split()[:2])
    expected = {(min(v, int(u) - 1), max(v, int(u) - 1)) for v, line in enumerate(lines[1:n + 1]) for u in line.split()}
    graph = cg.Graph.read(path)
    assert graph.num_vertices == n and len(expected) == m
    assert edge_set(graph) == expected


def test_grids_have_their_stencils():
    torus = cg.Graph.grid((8, 6))
    assert torus.grid_shape == (8, 6) and torus.num_entries == 8 * 6 * 8
    assert len(edge_set(torus)) == 8 * 6 * 4  # each cell's 8 neighbors, each edge counted from both ends
    line = cg.Graph.grid((50,), neighborhood="moore", boundary="fixed:0")
    assert line.num_vertices == 50 and len(edge_set(line)) == 49
    cube = cg.Graph.grid("5x5x5", neighborhood="vonneumann", boundary="periodic")
    assert cube.num_entries == 125 * 6
    hexagonal = cg.Graph.grid((10, 10), neighborhood="hex")
    assert hexagonal.num_entries == 100 * 6


def test_mesh_dual_and_nodal_graphs(data):
    path = data / "meshes/t1_2d_tri_v41.msh"
    dual = cg.Graph.read_mesh(path)
    nodal = cg.Graph.read_mesh(path, graph="nodal")
    assert dual.coords.shape == (dual.num_vertices, 3)
    assert nodal.coords.shape == (nodal.num_vertices, 3)
    # A triangle mesh: every element has at most three neighbors across its edges.
    offsets, _ = dual.csr()
    assert np.diff(offsets).max() <= 3


def test_generators_are_seeded():
    a, b, c = (cg.Graph.generate("rgg:1000:6", seed=s) for s in (1, 1, 2))
    assert edge_set(a) == edge_set(b) != edge_set(c)
    assert a.coords.shape == (1000, 2)
    assert 4 < a.num_entries / a.num_vertices < 8


def test_numpy_edges_are_undirected_without_loops_or_repeats():
    graph = cg.Graph.from_edges(np.array([[0, 1], [1, 0], [1, 2], [2, 2], [3, 1]]))
    assert graph.num_vertices == 4
    assert edge_set(graph) == {(0, 1), (1, 2), (1, 3)}
    with_isolated = cg.Graph.from_edges([[0, 1]], num_vertices=5)
    assert with_isolated.num_vertices == 5 and with_isolated.num_entries == 2


def test_scipy_matrices_read_as_matrix_market_files(data, tmp_path):
    matrix = scipy.sparse.random(300, 300, density=0.02, random_state=3, format="csr")
    scipy.io.mmwrite(str(tmp_path / "m.mtx"), matrix)
    assert edge_set(cg.Graph.from_scipy(matrix)) == edge_set(cg.Graph.read(tmp_path / "m.mtx"))
    with pytest.raises(cg.Error, match="square"):
        cg.Graph.from_scipy(scipy.sparse.random(3, 4, density=0.5, format="csr"))


def test_networkx_graphs_keep_nodes_and_positions():
    reference = nx.random_geometric_graph(400, 0.08, seed=4)
    graph = cg.Graph.from_networkx(reference)
    assert graph.nodes == list(reference.nodes())
    assert graph.labels == [str(node) for node in reference.nodes()]
    assert np.allclose(graph.coords, [reference.nodes[v]["pos"] for v in reference.nodes()])
    assert edge_set(graph) == {tuple(sorted(e)) for e in reference.edges()}
    directed = cg.Graph.from_networkx(nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")]))
    assert directed.nodes == ["a", "b", "c"] and edge_set(directed) == {(0, 1), (1, 2)}
