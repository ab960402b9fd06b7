#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/corpus/ (docs/FUZZING.md): small inputs for the
formats data/ has no file of (VTK meshes, state files, checkpoints, edge lists), and small ones
beside data/'s large meshes, whose half-megabyte files make each fuzzing run slow. The binary
seeds (Gmsh binary, checkpoints) are why this script exists; rerunning it rewrites the same bytes.
Regression inputs found by fuzzing go into the same folders by hand, named crash-* or leak-*
as libFuzzer named them; this script leaves those alone."""
import base64
import os
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    folder = os.path.join(HERE, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# Edge lists: 0-based, 1-based with weights and comments.
write("graph_edges", "zero-based.txt", "0 1\n1 2\n2 0\n2 3\n")
write("graph_edges", "weighted.txt", "# u v weight\n% another comment\n1 2 0.5\n2 3 1.5\n3 1 2\n4 4 1\n")
# Edge lists as pandas, igraph and spreadsheets write them: headers, names, CSV quotes, sparse ids.
write("graph_edges", "header.csv", "source,target,weight\n1,2,0.5\n2,3,1.5\n")
write("graph_edges", "pandas-index.csv", ",source,target\n0,alice,bob\n1,bob,carol\n")
write("graph_edges", "names.txt", "# named vertices\ncarol dave\nalice carol\nbob alice\n")
write("graph_edges", "quoted.csv", '"Smith, J.","O""Brien"\nJones,"Smith, J."\n')
write("graph_edges", "tabs.tsv", "from\tto\tweight\nJean Valjean\tMyriel\t2\nMyriel\tNapoleon\t1\n")
write("graph_edges", "sparse.txt", "26196 5\n1000 26196\n")

# GraphML: key defaults, nested graphs, undeclared edge ends, a directed file with coordinates.
GRAPHML = '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
write("graph_graphml", "nested.graphml",
      GRAPHML + '<key id="z" for="node" attr.name="z" attr.type="double"><default>7</default></key>\n'
      '<graph edgedefault="undirected">\n<node id="b"/>\n<edge source="b" target="c"/>\n'
      '<graph edgedefault="undirected"><node id="a"/><edge source="a" target="b"/></graph>\n</graph>\n</graphml>\n')
write("graph_graphml", "directed-xy.graphml",
      GRAPHML + '<key id="x" for="node" attr.name="x" attr.type="float"/>\n'
      '<key id="y" for="node" attr.name="y" attr.type="float"/>\n'
      '<key id="w" for="edge" attr.name="weight" attr.type="double"/>\n<graph edgedefault="directed">\n'
      '<node id="0"><data key="x">1.5</data><data key="y">-2</data></node>\n'
      '<node id="1"><data key="x">0</data><data key="y">3e2</data></node>\n'
      '<edge source="0" target="1"><data key="w">0.25</data></edge>\n<edge source="1" target="0"/>\n'
      '</graph>\n</graphml>\n')

# Gmsh: a unit square of two triangles and a boundary line, in each version and file type.
SQUARE = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
write("mesh_gmsh", "square-v22.msh",
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
      "$PhysicalNames\n1\n2 1 \"surface\"\n$EndPhysicalNames\n"
      "$Nodes\n4\n" + "".join(f"{i + 1} {x} {y} {z}\n" for i, (x, y, z) in enumerate(SQUARE)) + "$EndNodes\n"
      "$Elements\n3\n1 1 2 0 1 1 2\n2 2 2 0 1 1 2 3\n3 2 2 0 1 1 3 4\n$EndElements\n")
write("mesh_gmsh", "square-v41.msh",
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
      "$Entities\n0 0 1 0\n1 0 0 0 1 1 0 0 0\n$EndEntities\n"
      "$Nodes\n1 4 1 4\n2 1 0 4\n1\n2\n3\n4\n" + "".join(f"{x} {y} {z}\n" for x, y, z in SQUARE) + "$EndNodes\n"
      "$Elements\n2 3 1 3\n1 1 1 1\n1 1 2\n2 1 2 2\n2 1 2 3\n3 1 3 4\n$EndElements\n")
i32 = lambda *v: struct.pack(f"<{len(v)}i", *v)
u64 = lambda *v: struct.pack(f"<{len(v)}Q", *v)
f64 = lambda *v: struct.pack(f"<{len(v)}d", *v)
write("mesh_gmsh", "square-v22-binary.msh",
      b"$MeshFormat\n2.2 1 8\n" + i32(1) + b"\n$EndMeshFormat\n$Nodes\n4\n" +
      b"".join(i32(i + 1) + f64(*p) for i, p in enumerate(SQUARE)) + b"\n$EndNodes\n$Elements\n3\n" +
      i32(1, 1, 2) + i32(1, 0, 1, 1, 2) + i32(2, 2, 2) + i32(2, 0, 1, 1, 2, 3) + i32(3, 0, 1, 1, 3, 4) +
      b"\n$EndElements\n")
write("mesh_gmsh", "square-v41-binary.msh",
      b"$MeshFormat\n4.1 1 8\n" + i32(1) + b"\n$EndMeshFormat\n$Nodes\n" + u64(1, 4, 1, 4) +
      i32(2, 1, 0) + u64(4) + u64(1, 2, 3, 4) + b"".join(f64(*p) for p in SQUARE) + b"\n$EndNodes\n$Elements\n" +
      u64(2, 3, 1, 3) + i32(1, 1, 1) + u64(1) + u64(1, 1, 2) + i32(2, 1, 2) + u64(2) + u64(2, 1, 2, 3, 3, 1, 3, 4) +
      b"\n$EndElements\n")

# METIS meshes: triangles, and a weighted header (ncon 1) over tetrahedra.
write("mesh_metis", "triangles.mesh", "% two triangles\n2\n1 2 3\n1 3 4\n")
write("mesh_metis", "weighted-tets.mesh", "2 1\n5 1 2 3 4\n7 2 3 4 5\n")

# Legacy VTK: two tetrahedra and a triangle, classic and 5.x cell layouts (tests/test_mesh.cpp).
POINTS = "POINTS 5 float\n0 0 0 1 0 0 0 1\n0 0 0 1\n1 1 1\n"
write("mesh_vtk", "classic.vtk",
      "# vtk DataFile Version 3.0\ntwo tets\nASCII\nDATASET UNSTRUCTURED_GRID\n" + POINTS +
      "CELLS 3 14\n4 0 1 2 3\n4 1 2 3 4\n3 0 1 2\nCELL_TYPES 3\n10\n10\n5\nCELL_DATA 3\nSCALARS s int 1\n"
      "LOOKUP_TABLE default\n0 1 2\n")
write("mesh_vtk", "v5.vtk",
      "# vtk DataFile Version 5.1\n\nASCII\nDATASET UNSTRUCTURED_GRID\n" + POINTS +
      "METADATA\nINFORMATION 0\n\nCELLS 4 11\nOFFSETS vtktypeint64\n0 4 8 11\n"
      "CONNECTIVITY vtktypeint64\n0 1 2 3 1 2 3 4\n0 1 2\nCELL_TYPES 3\n10 10 5\n")


# VTU: the same mesh, ascii and base64 (UInt32 and UInt64 size headers, apart and together).
def vtu(header_type, arrays, fmt):
    points, connectivity, offsets, types = arrays
    array = lambda kind, name, text, extra="": (
        f'<DataArray type="{kind}" Name="{name}"{extra} format="{fmt}">{text}</DataArray>\n')
    return ('<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" '
            f'header_type="{header_type}">\n<UnstructuredGrid>\n<Piece NumberOfPoints="5" NumberOfCells="3">\n'
            "<PointData/>\n<Points>\n" + array("Float64", "Points", points, ' NumberOfComponents="3"') +
            "</Points>\n<Cells>\n" + array("Int64", "connectivity", connectivity) +
            array("Int64", "offsets", offsets) + array("UInt8", "types", types) +
            "</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n")


POINT_VALUES = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]
CONNECTIVITY = [0, 1, 2, 3, 1, 2, 3, 4, 0, 1, 2]
write("mesh_vtu", "ascii.vtu", vtu("UInt32", ("0 0 0 1 0 0\n0 1 0 0 0 1\n1 1 1", "0 1 2 3 1 2 3 4 0 1 2",
                                               "4 8 11", "10 10 5"), "ascii"))
raw = (struct.pack("<15d", *POINT_VALUES), struct.pack("<11q", *CONNECTIVITY), struct.pack("<3q", 4, 8, 11),
       bytes([10, 10, 5]))
for header, size_format in (("UInt32", "<I"), ("UInt64", "<Q")):
    apart = [(base64.b64encode(struct.pack(size_format, len(r))) + base64.b64encode(r)).decode() for r in raw]
    together = [base64.b64encode(struct.pack(size_format, len(r)) + r).decode() for r in raw]
    write("mesh_vtu", f"base64-{header}-apart.vtu", vtu(header, apart, "binary"))
    write("mesh_vtu", f"base64-{header}-together.vtu", vtu(header, together, "binary"))

# Per-vertex state files and METIS .part files.
write("state_file", "states.txt", "# one state per vertex\n0\n1\n2\n\n1\n")
write("state_file", "large.txt", "4294967295\n0\n")
write("state_file", "labelled.txt", '# cellgraph states, 3 vertices: label state\na 1\n"b c" 0\n"#d" 2\n')
write("partition_file", "two-parts.part", "0\n1\n1\n% comment\n0\n")


# Checkpoints (src/output/checkpoint.cpp): magic, version, step, seed, model, parameters,
# source, run options (version 2), vertices, variables (width, bytes), CRC-32 of everything
# before it. Without run options: a version 1 file.
def checkpoint(step, seed, model, parameters, source, vertices, variables, run_options=None):
    text = lambda s: struct.pack("<I", len(s)) + s.encode()
    version = 1 if run_options is None else 2
    body = b"CGCKPT\r\n" + struct.pack("<IQQ", version, step, seed) + text(model) + text(parameters) + text(source)
    if run_options is not None:
        body += text("".join(token + "\0" for token in run_options))
    body += struct.pack("<II", vertices, len(variables))
    for width, values in variables:
        body += struct.pack("<I", width) + bytes(values)
    return body + struct.pack("<I", zlib.crc32(body))


write("checkpoint", "life.checkpoint",
      checkpoint(42, 7, "lifelike", "rule=B3/S23", "grid 4x4 moore periodic", 16, [(1, [0, 1] * 8)]))
write("checkpoint", "cloud.checkpoint",
      checkpoint(3, 1, "cloud", "", "grid 2x2x2 cloud fixed:0", 8, [(1, [1] * 8), (1, [0] * 8), (1, [1, 0] * 4)]))
write("checkpoint", "options.checkpoint",
      checkpoint(9, 3, "lifelike", "rule=B36/S23", "grid 4x2 moore periodic", 8, [(1, [1, 0] * 4)],
                 ["--grid", "4x2", "--rule", "B36/S23", "--seed", "3"]))
write("checkpoint", "wide.checkpoint",
      checkpoint(0, 1, "sir", "beta=0.3", "graph karate.mtx", 3, [(4, [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])]))
