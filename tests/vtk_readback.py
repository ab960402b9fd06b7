#!/usr/bin/env python3
"""Reads cellgraph's VTK outputs back with readers that share no code with its writer, and
checks them against what the same run says otherwise: the final state per vertex
(--states-out), the mesh it ran on, the statistics of a movable run.

- .vtu (meshes, graphs, particles): meshio (Debian: python3-meshio).
- .vti (grids, VTK ImageData, which meshio does not read): decoded here with the standard
  library's XML parser, base64 and zlib, after VTK's XML file format.

Usage: vtk_readback.py CELLGRAPH   (the cellgraph binary; $CELLGRAPH_CLI overrides it)
Exits 1 on the first mismatch, naming the run and the array; 0 when every check passes."""
import base64
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

try:
    import meshio
    import numpy as np
except ImportError as e:
    sys.exit(f"vtk_readback.py: {e}: this test needs meshio and numpy (Debian: apt-get install python3-meshio, "
             f"which tools/setup.sh installs) in the interpreter running it, {sys.executable}")

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")

TYPES = {"Int8": "<i1", "UInt8": "<u1", "Int16": "<i2", "UInt16": "<u2", "Int32": "<i4", "UInt32": "<u4",
         "Int64": "<i8", "UInt64": "<u8", "Float32": "<f4", "Float64": "<f8"}


class Mismatch(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Mismatch(what)


# ImageData, decoded independently ------------------------------------------------------------

def b64_length(num_bytes):
    """Base64 characters for num_bytes bytes, padding included."""
    return -(-num_bytes // 3) * 4


def decode_binary(text, dtype, header_type, compressed):
    """A format="binary" DataArray: base64 of a byte count and the values (one stream), or of a
    zlib compression header and, encoded apart, the compressed blocks."""
    header_dtype = np.dtype(TYPES[header_type])
    word = header_dtype.itemsize
    if not compressed:
        raw = base64.b64decode(text)
        size = int(np.frombuffer(raw[:word], header_dtype)[0])
        check(len(raw) - word >= size, f"a binary array holds {len(raw) - word} bytes, its header says {size}")
        return np.frombuffer(raw[word:word + size], dtype)
    blocks = int(np.frombuffer(base64.b64decode(text[:b64_length(word)])[:word], header_dtype)[0])
    header_chars = b64_length(word * (3 + blocks))
    header = np.frombuffer(base64.b64decode(text[:header_chars]), header_dtype)
    block_size, last_size, sizes = int(header[1]), int(header[2]), [int(s) for s in header[3:]]
    data = base64.b64decode(text[header_chars:])
    check(len(data) == sum(sizes), f"compressed blocks hold {len(data)} bytes, the header says {sum(sizes)}")
    out, at = b"", 0
    for i, size in enumerate(sizes):
        block = zlib.decompress(data[at:at + size])
        expected = last_size if i == blocks - 1 and last_size else block_size
        check(len(block) == expected, f"block {i} inflates to {len(block)} bytes, not {expected}")
        out += block
        at += size
    return np.frombuffer(out, dtype)


def read_vti(path):
    """(attributes of the VTKFile and ImageData elements, {name: array} of the CellData)."""
    root = ET.parse(path).getroot()
    check(root.tag == "VTKFile" and root.get("type") == "ImageData", f"{path} is no ImageData file")
    check(root.get("byte_order") == "LittleEndian", f"{path}: byte order {root.get('byte_order')}")
    header_type = root.get("header_type", "UInt32")
    compressor = root.get("compressor")
    check(compressor in (None, "vtkZLibDataCompressor"), f"{path}: compressor {compressor}")
    image = root.find("ImageData")
    arrays = {}
    for array in image.find("Piece").find("CellData"):
        dtype = np.dtype(TYPES[array.get("type")])
        text = "".join(array.text.split())
        if array.get("format") == "ascii":
            arrays[array.get("Name")] = np.array(array.text.split(), dtype=dtype)
        else:
            check(array.get("format") == "binary", f"{path}: format {array.get('format')}")
            arrays[array.get("Name")] = decode_binary(text, dtype, header_type, compressor is not None)
        arrays[array.get("Name") + ":type"] = array.get("type")
    return dict(root.attrib) | dict(image.attrib), arrays


# Runs --------------------------------------------------------------------------------------

class Runner:
    def __init__(self, cli, folder):
        self.cli, self.folder = cli, folder

    def path(self, name):
        return os.path.join(self.folder, name)

    def run(self, args):
        command = [self.cli, "run", "--backend", "cpu"] + args.split()
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}")

    def states(self, name):
        """A --states-out file: a state a line, vertex by vertex, after '#' comment lines."""
        with open(self.path(name)) as f:
            return np.array([int(line.split()[-1]) for line in f if not line.startswith("#")], dtype=np.int64)

    def collection(self, base):
        """The snapshot files the .pvd lists, by step, each checked to exist."""
        root = ET.parse(self.path(base + ".pvd")).getroot()
        files = {int(d.get("timestep")): self.path(d.get("file")) for d in root.find("Collection")}
        for f in files.values():
            check(os.path.exists(f), f"{base}.pvd names {f}, which is missing")
        return files


def same(name, got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    check(got.shape == expected.shape, f"{name}: {got.shape} values, expected {expected.shape}")
    differ = np.flatnonzero(got.ravel() != expected.ravel())
    check(differ.size == 0, f"{name}: {differ.size} values differ, first at {differ[:1]}: "
                            f"{got.ravel()[differ[:1]]} for {expected.ravel()[differ[:1]]}")


def check_grid(r):
    # Life on a torus: snapshots every 5 steps, zlib and uncompressed, ascii never.
    for compression in ("zlib", "none"):
        base = "life_" + compression
        r.run(f"--grid 70x50 --rule B3/S23 --fill 0.4 --seed 7 --steps 10 --vtk {r.path(base)} --vtk-every 5 "
              f"--vtk-compression {compression} --states-out {r.path(base + '.states')}")
        files = r.collection(base)
        check(sorted(files) == [0, 5, 10], f"{base}.pvd lists steps {sorted(files)}")
        attributes, arrays = read_vti(files[10])
        check(attributes.get("WholeExtent") == "0 70 0 50 0 0", f"{base}: extent {attributes.get('WholeExtent')}")
        check(("compressor" in attributes) == (compression == "zlib"), f"{base}: compressor {attributes}")
        check(arrays["state:type"] == "UInt8", f"{base}: state type {arrays['state:type']} for 2 states")
        same(f"{base} state", arrays["state"], r.states(base + ".states"))
    # A 3D grid with a model of three variables: the state and the others by name.
    r.run(f"--model cloud --grid 20x16x10 --param hum0=0.5 --param act0=0.05 --seed 3 --steps 4 "
          f"--vtk {r.path('cloud')} --states-out {r.path('cloud.states')}")
    attributes, arrays = read_vti(r.collection("cloud")[4])
    check(attributes.get("WholeExtent") == "0 20 0 16 0 10", f"cloud: extent {attributes.get('WholeExtent')}")
    same("cloud state", arrays["state"], r.states("cloud.states"))
    for name in ("hum", "act"):
        check(arrays[name].size == 3200 and set(np.unique(arrays[name])) <= {0, 1}, f"cloud: {name} is not 0/1")


def check_mesh(r):
    # Brian's Brain on the elements of a quadrilateral mesh: cell data in element order.
    mesh_file = os.path.join(DATA, "meshes", "t11_2d_quad_v41.msh")
    r.run(f"--mesh {mesh_file} --ncommon 1 --rule B2/S/C3 --fill 0.35 --seed 2 --steps 6 --vtk {r.path('quad')} "
          f"--states-out {r.path('quad.states')}")
    written = meshio.read(r.collection("quad")[6])
    source = meshio.read(mesh_file)
    expected = r.states("quad.states")
    state = np.concatenate(written.cell_data["state"])
    check(state.dtype == np.uint8, f"quad: state dtype {state.dtype}")
    same("quad state", state, expected)
    check(sum(len(block.data) for block in written.cells) == expected.size, "quad: cells are not one per element")
    same("quad points", written.points[:, :source.points.shape[1]], source.points)
    check(set(block.type for block in written.cells) <= {"quad", "triangle"}, f"quad: cell types {written.cells}")
    # The nodal graph of a tetrahedral mesh: point data, vertices and edges as cells.
    r.run(f"--mesh {os.path.join(DATA, 'meshes', 't5_3d_tet_v41.msh')} --mesh-graph nodal --rule B4/S45 --fill 0.3 "
          f"--steps 3 --vtk {r.path('nodes')} --vtk-compression none --states-out {r.path('nodes.states')}")
    written = meshio.read(r.collection("nodes")[3])
    expected = r.states("nodes.states")
    same("nodes state", written.point_data["state"], expected)
    check(written.points.shape == (expected.size, 3), f"nodes: points {written.points.shape}")
    vertices = [block for block in written.cells if block.type == "vertex"]
    same("nodes vertex cells", np.concatenate([b.data.ravel() for b in vertices]), np.arange(expected.size))


def check_particles(r):
    # Vicsek: ids, unit headings whose mean is the order parameter in the statistics; zlib and
    # uncompressed files decode to the same arrays.
    decoded = {}
    for compression in ("zlib", "none"):
        base = "vicsek_" + compression
        r.run(f"--model vicsek --particles 500 --box 12 --param eta=0.8 --seed 5 --steps 20 --stats-every 20 "
              f"--stats {r.path(base + '.csv')} --vtk {r.path(base)} --vtk-compression {compression}")
        written = meshio.read(r.collection(base)[20])
        same(f"{base} id", written.point_data["id"], np.arange(500))
        heading = written.point_data["heading"]
        check(heading.shape == (500, 3) and np.allclose(np.hypot(heading[:, 0], heading[:, 1]), 1, atol=1e-12),
              f"{base}: headings are not unit vectors in the plane")
        with open(r.path(base + ".csv")) as f:
            rows = [line.strip().split(",") for line in f]
        order = float(rows[-1][rows[0].index("order")])
        mean = np.linalg.norm(heading.mean(axis=0))
        check(abs(mean - order) < 1e-6, f"{base}: |mean heading| {mean}, statistics say order {order}")
        decoded[compression] = (written.points, heading)
    same("vicsek points, zlib against none", decoded["zlib"][0], decoded["none"][0])
    same("vicsek headings, zlib against none", decoded["zlib"][1], decoded["none"][1])


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    cli = os.environ.get("CELLGRAPH_CLI") or argv[1]
    with tempfile.TemporaryDirectory(prefix="vtk_readback.") as folder:
        r = Runner(cli, folder)
        for case in (check_grid, check_mesh, check_particles):
            try:
                case(r)
            except Mismatch as e:
                print(f"vtk_readback.py: {case.__name__}: {e}", file=sys.stderr)
                return 1
            print(f"{case.__name__}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
