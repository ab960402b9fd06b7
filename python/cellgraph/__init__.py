"""cellgraph from Python: cellular automata and network models on graphs, CPU or GPU.

    import networkx as nx, cellgraph as cg
    g = cg.Graph.from_networkx(nx.erdos_renyi_graph(100_000, 3e-5, seed=1))
    sim = cg.Simulation(g, model="sir", params={"beta": 0.2, "tau": 3}, seed=7)
    sim.set_state(cg.random_cells(g, count=10, seed=7))
    stats = sim.run(200)        # dict of NumPy arrays: step, S, I, R
    final = sim.state()         # NumPy array in the graph's vertex order

The engine, its run loop and its writers are the library's (docs/PYTHON.md); this package adds
graphs from networkx and SciPy objects and parameters written as Python values.
"""
import numpy as _np

from . import _cellgraph
from ._cellgraph import Error, Graph, cuda_available, listed_cells, models, random_cells, read_states

__all__ = ["Error", "Graph", "Simulation", "Ensemble", "models", "random_cells", "listed_cells", "read_states",
           "cuda_available"]


def _text(value):
    """A parameter value as the model reads it: True -> "true", 0.2 -> "0.2", "B3/S23" as is."""
    if isinstance(value, (bool, _np.bool_)):
        return "true" if value else "false"
    return str(value)


def _params(params):
    return {str(name): _text(value) for name, value in (params or {}).items()}


class Simulation(_cellgraph.Simulation):
    __doc__ = _cellgraph.Simulation.__doc__

    def __init__(self, graph, model=None, params=None, **options):
        super().__init__(graph, model, _params(params), **options)
        self._constructed = True

    def __repr__(self):
        # A traceback's locals hold the half-made object of a failed __init__: C++ would read
        # nothing there.
        return super().__repr__() if _constructed(self) else "<cellgraph.Simulation, not constructed>"

    def set_state(self, states):
        """Variable 0 of every vertex: an array in the graph's order, or a mapping from the graph's
        nodes (networkx) or labels to states, the others 0."""
        super().set_state(_states_array(self.graph, states))

    def state_dict(self):
        """Each vertex's state by its node (networkx), label, or number."""
        return dict(zip(_names(self.graph), self.state().tolist()))


class Ensemble(_cellgraph.Ensemble):
    __doc__ = _cellgraph.Ensemble.__doc__

    def __init__(self, graph, model=None, params=None, sweep=None, **options):
        sweep = [(str(name), [_text(v) for v in values]) for name, values in (sweep or {}).items()]
        super().__init__(graph, model, _params(params), sweep, **options)
        self._constructed = True

    def __repr__(self):
        return super().__repr__() if _constructed(self) else "<cellgraph.Ensemble, not constructed>"

    def set_state(self, states, member=None):
        super().set_state(_states_array(self.graph, states), member)


def _constructed(obj):
    return obj.__dict__.get("_constructed", False)


def _names(graph):
    nodes = getattr(graph, "nodes", None)
    if nodes is not None:
        return nodes
    return graph.labels if graph.labels is not None else range(graph.num_vertices)


def _states_array(graph, states):
    if not hasattr(states, "items"):
        return _np.asarray(states)
    index = {name: v for v, name in enumerate(_names(graph))}
    out = _np.zeros(graph.num_vertices, dtype=_np.int64)
    for name, state in states.items():
        if name not in index:
            raise Error(f"no vertex is named {name!r}")
        out[index[name]] = state
    return out


def _from_edges(edges, num_vertices=None, labels=None, coords=None):
    """A graph from an (E, 2) array of vertex numbers (undirected: both directions are added,
    self loops dropped, repeated edges merged). labels: a name per vertex (kept as strings);
    coords: (num_vertices, 2 or 3) positions for pictures and VTK."""
    edges = _np.asarray(edges, dtype=_np.int64).reshape(-1, 2)
    if num_vertices is None:
        num_vertices = int(edges.max()) + 1 if edges.size else 0
    names = [str(label) for label in labels] if labels is not None else []
    return Graph._from_edges(edges, int(num_vertices), names, coords, "graph from Python")


def _from_scipy(matrix):
    """A graph from a square scipy.sparse matrix: vertex i and j are neighbors where entry (i, j)
    or (j, i) is stored (its values are not read), as a Matrix Market file is read."""
    coo = matrix.tocoo()
    if coo.shape[0] != coo.shape[1]:
        raise Error(f"a graph's matrix must be square, not {coo.shape[0]} x {coo.shape[1]}")
    edges = _np.stack([coo.row, coo.col], axis=1)
    graph = Graph._from_edges(edges, int(coo.shape[0]), [], None, "graph from a SciPy sparse matrix")
    return graph


def _from_networkx(graph, pos="pos"):
    """A graph from a networkx graph (directed ones as undirected). Its nodes, in graph.nodes()
    order, are the vertices: Graph.nodes keeps them, Simulation.state_dict() maps back to them, and
    their str() are the labels state files name. Node attribute `pos`, where every node has 2 or 3
    coordinates, gives the coordinates."""
    nodes = list(graph.nodes())
    index = {node: v for v, node in enumerate(nodes)}
    edges = _np.fromiter((i for u, v in graph.edges() for i in (index[u], index[v])), dtype=_np.int64,
                         count=2 * graph.number_of_edges()).reshape(-1, 2)
    coords = None
    if pos and nodes:
        places = [graph.nodes[node].get(pos) for node in nodes]
        if all(p is not None for p in places):
            coords = _np.asarray(places, dtype=float)
            if coords.ndim != 2 or coords.shape[1] not in (2, 3):
                coords = None
    labels = [str(node) for node in nodes]
    if len(set(labels)) != len(labels):
        labels = []  # nodes whose names print alike (1 and "1"): Graph.nodes still maps them
    result = Graph._from_edges(edges, len(nodes), labels, coords, "networkx graph")
    result.nodes = nodes
    return result


Graph.from_edges = staticmethod(_from_edges)
Graph.from_scipy = staticmethod(_from_scipy)
Graph.from_networkx = staticmethod(_from_networkx)
