#!/usr/bin/env bash
# Installs what cellgraph needs on Debian 12 (apt-get, as root or through sudo), then configures
# and builds it in build/ (Release; the CUDA backend too where nvcc is found). Idempotent: a
# second run only rebuilds what changed. Extra arguments go to CMake's configure step (the
# first one; afterwards change options with `cmake -S . -B build -D...`).
set -euo pipefail
cd "$(dirname "$0")/.."

# Boost.Graph: reverse Cuthill-McKee (header-only) and the GraphML reader (compiled library).
# Graphviz's libgvc lays out graphs without coordinates for pictures; python3-meshio is the
# independent VTK reader the tests check written files with. The Python module needs pybind11 and
# Python's headers; its tests check it against networkx and SciPy with pytest.
packages=(build-essential cmake ninja-build pkg-config libboost-program-options-dev libboost-graph-dev
          libmetis-dev metis libpng-dev libgif-dev zlib1g-dev doctest-dev libopenmpi-dev openmpi-bin
          golly gnuplot-nox python3 python3-meshio libgraphviz-dev
          pybind11-dev python3-dev python3-numpy python3-scipy python3-networkx python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# nvcc lives outside PATH on a stock CUDA install.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi

if [ ! -f build/CMakeCache.txt ] || [ ! -f build/build.ninja ]; then  # new, or a configure that failed
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
fi
cmake --build build --parallel "$(nproc)"
