#!/usr/bin/env bash
# Checks that an installed cellgraph can be used from another CMake project: installs a build
# into a temporary prefix (cmake --install: nothing is rebuilt, so build it first), checks that
# the installed CMake files name no path of the source or build tree, then configures, builds and
# runs tests/consumer against the prefix (find_package(cellgraph) through CMAKE_PREFIX_PATH).
# Usage: tools/check_install.sh [BUILD_DIR]   (default: build; CI runs it after the test suite)
# Set CELLGRAPH_KEEP_INSTALL=1 to keep the temporary folder and see what was installed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-build}
[ -f "$build/CMakeCache.txt" ] || { echo "check_install: $build is not a configured build folder" >&2; exit 2; }
build=$(cd "$build" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cellgraph-install.XXXXXX")
if [ "${CELLGRAPH_KEEP_INSTALL:-0}" = 1 ]; then echo "check_install: keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
prefix=$tmp/prefix

echo "check_install: cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log" >&2; exit 1; }
for f in lib/cmake/cellgraph/cellgraphConfig.cmake lib/cmake/cellgraph/cellgraphConfigVersion.cmake \
         include/cellgraph/cellgraph/simulation.hpp include/cellgraph/models/registry.hpp bin/cellgraph \
         share/cellgraph/rules/Life.rule share/cellgraph/examples/acorn.ini; do
  [ -e "$prefix/$f" ] || { echo "check_install: $f was not installed" >&2; exit 1; }
done
# A relocatable package: its CMake files find everything from the prefix and the system.
if grep -rlF -e "$root" -e "$build" "$prefix/lib/cmake/cellgraph"; then
  echo "check_install: the installed CMake files above name the source or build tree" >&2; exit 1
fi

# The consumer uses the compiler that built the library (a clang build's objects, a gcc consumer...).
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S tests/consumer -B "$tmp/consumer" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} > "$tmp/configure.log" \
  || { cat "$tmp/configure.log" >&2; exit 1; }
grep "cellgraph .* from" "$tmp/configure.log" || true
cmake --build "$tmp/consumer" > "$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }
"$tmp/consumer/consumer"
"$prefix/bin/cellgraph" models > /dev/null

# The Python module, where the build has one: imported from the prefix's packages folder, and run.
python_dir=$(sed -n 's/^CELLGRAPH_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
if [ -n "$python_dir" ]; then
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  (cd "$tmp" && PYTHONPATH="$prefix/$python_dir" "$python" -c "
import cellgraph as cg
assert cg.__file__.startswith('$prefix'), cg.__file__
g = cg.Graph.grid((32, 32))
sim = cg.Simulation(g, backend='cpu')
sim.set_state(cg.random_cells(g, density=0.5))
print('check_install: python module', cg.__file__, 'ran', sim.run(10)['step'][-1], 'steps')")
fi
echo "check_install: passed"
