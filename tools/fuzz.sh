#!/usr/bin/env bash
# Fuzzes the parsers (docs/FUZZING.md): each libFuzzer target of a CELLGRAPH_FUZZ build for a
# bounded time, a few at once, starting from its seeds and from what earlier runs kept. Exits
# non-zero when any target finds a crash, a leak, undefined behaviour, a timeout, an
# out-of-memory or (with --contract enforce) a broken error contract; the input that did it is
# kept, and its path printed.
#
#   tools/fuzz.sh                       # every target, 20 s each, in build-san (CI)
#   tools/fuzz.sh -t 3600 -j 8 mesh_gmsh mesh_vtu     # longer, for chosen targets
#
# The build: cmake -S . -B build-san -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug \
#   -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" -DCELLGRAPH_CUDA=OFF -DCELLGRAPH_SANITIZE=ON -DCELLGRAPH_FUZZ=ON
#   cmake --build build-san --target fuzz_targets
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: tools/fuzz.sh [options] [TARGET...] [-- LIBFUZZER_FLAGS...]
  -b, --build DIR        the CELLGRAPH_FUZZ build (default: build-san)
  -t, --time SECONDS     fuzzing time per target (default: 20, or $CELLGRAPH_FUZZ_TIME)
  -j, --jobs N           targets fuzzed at once (default: the number of cores)
  -o, --out DIR          corpora, logs and crashing inputs (default: BUILD/fuzz-out)
  --max-len BYTES        the largest input libFuzzer makes; seeds are cut to it (default: 65536)
  --timeout SECONDS      an input that takes longer is a finding (default: 10)
  --contract MODE        error contract checks: off, warn or enforce (default: $CELLGRAPH_FUZZ_CONTRACT, else enforce)
  -l, --list             list the targets and exit
TARGET: any of the build's targets (BUILD/tests/fuzz/targets.txt); default: all of them.
EOF
}

build=build-san
seconds=${CELLGRAPH_FUZZ_TIME:-20}
jobs=$(nproc)
out=""
max_len=65536
timeout=10
contract=${CELLGRAPH_FUZZ_CONTRACT:-enforce}
list=0
targets=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -b|--build) build=$2; shift 2 ;;
    -t|--time) seconds=$2; shift 2 ;;
    -j|--jobs) jobs=$2; shift 2 ;;
    -o|--out) out=$2; shift 2 ;;
    --max-len) max_len=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --contract) contract=$2; shift 2 ;;
    -l|--list) list=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
case "$contract" in off|0|warn|enforce|1|on) ;; *) echo "fuzz.sh: --contract is off, warn or enforce" >&2; exit 2 ;; esac

fuzz_dir=$build/tests/fuzz
if [ ! -f "$fuzz_dir/targets.txt" ]; then
  echo "fuzz.sh: $fuzz_dir/targets.txt not found: configure $build with -DCELLGRAPH_FUZZ=ON (see tools/fuzz.sh's header)" >&2
  exit 2
fi
mapfile -t known < "$fuzz_dir/targets.txt"
if [ "$list" -eq 1 ]; then printf '%s\n' "${known[@]}"; exit 0; fi
[ ${#targets[@]} -gt 0 ] || targets=("${known[@]}")
for t in "${targets[@]}"; do
  if ! printf '%s\n' "${known[@]}" | grep -qx "$t"; then
    echo "fuzz.sh: no target $t (targets: ${known[*]})" >&2
    exit 2
  fi
  # A libFuzzer program answers -help=1; a replay program takes it for a missing file.
  if [ ! -x "$fuzz_dir/$t" ] || ! "$fuzz_dir/$t" -help=1 > /dev/null 2>&1; then
    echo "fuzz.sh: $fuzz_dir/$t is missing or is not a libFuzzer program: build $build with CELLGRAPH_FUZZ=ON" >&2
    exit 2
  fi
done
out=${out:-$build/fuzz-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

export CELLGRAPH_FUZZ_CONTRACT=$contract
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-}:print_stacktrace=1:halt_on_error=1

echo "fuzz.sh: ${#targets[@]} targets, ${seconds} s each, ${jobs} at a time, contract checks: ${contract}; output in $out"

# One target: its own corpus folder first (libFuzzer adds new inputs there), the seeds second;
# the format's keywords from tests/fuzz/dict/TARGET.dict where there is one.
fuzz_one() {
  local t=$1 corpus=$out/corpus/$1 crashes=$out/crashes/$1 log=$out/logs/$1.log
  mkdir -p "$corpus" "$crashes" "$out/logs"
  local status=0 dict=()
  [ -f "tests/fuzz/dict/$t.dict" ] && dict=(-dict="tests/fuzz/dict/$t.dict")
  "$fuzz_dir/$t" -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" -rss_limit_mb=2048 \
    -artifact_prefix="$crashes/" -print_final_stats=1 ${dict[@]+"${dict[@]}"} ${extra[@]+"${extra[@]}"} \
    "$corpus" "$fuzz_dir/seeds/$t" > "$log" 2>&1 || status=$?
  echo "$status" > "$out/logs/$t.status"
}

start=$(date +%s)
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait

failed=0
for t in "${targets[@]}"; do
  log=$out/logs/$t.log
  status=$(cat "$out/logs/$t.status" 2>/dev/null || echo 1)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  warned=$(grep -c 'contract (warn)' "$log" || true)
  if [ "$status" -eq 0 ]; then
    printf '  %-16s ok: %s runs, coverage %s%s\n' "$t" "${runs:-?}" "${cov:-?}" \
      "$([ "$warned" -gt 0 ] && echo ", $warned kinds of contract violation (warn; see $log)")"
    grep 'contract (warn)' "$log" | head -3 | cut -c1-300 | sed 's/^==cellgraph-fuzz== contract (warn): /      /' || true
  else
    failed=$((failed + 1))
    printf '  %-16s FINDING (exit %s): log %s\n' "$t" "$status" "$log"
    grep -E '^==cellgraph-fuzz== |^SUMMARY: |ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -5 | sed 's/^/      /' || true
    for input in "$out/crashes/$t"/*; do
      [ -f "$input" ] || continue
      echo "      input: $input"
      echo "      replay: $fuzz_dir/$t $input    (CELLGRAPH_FUZZ_VERBOSE=1 shows the parser's answer)"
    done
  fi
done
echo "fuzz.sh: $(( $(date +%s) - start )) s; ${#targets[@]} targets, $failed with findings"
[ "$failed" -eq 0 ]
