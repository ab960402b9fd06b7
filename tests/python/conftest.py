# The Python module's tests: CTest runs each file with the build's package on PYTHONPATH and the
# command-line program in CELLGRAPH_CLI, which the module is checked against.
import os
import pathlib
import subprocess

import pytest

DATA = pathlib.Path(os.environ.get("CELLGRAPH_DATA_DIR", pathlib.Path(__file__).resolve().parents[2] / "data"))


def cli_path():
    path = os.environ.get("CELLGRAPH_CLI")
    assert path, "CELLGRAPH_CLI names the cellgraph program (CTest sets it)"
    return path


@pytest.fixture
def cli():
    """Runs `cellgraph ARGS...`; returns the finished process (check=True: fails on a non-zero exit)."""

    def run(*args, check=True):
        done = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"cellgraph {' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")
        return done

    return run


@pytest.fixture
def data():
    return DATA
