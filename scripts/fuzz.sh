#!/usr/bin/env bash
# Runs the libFuzzer harnesses of fuzz/ and prints the executions of each.
#
#   scripts/fuzz.sh [options] SECONDS     each harness for SECONDS seconds
#   scripts/fuzz.sh [options] --runs N    each harness for N executions
#
# Options:
#   --build DIR    the build tree holding fuzz/harnesses/bin (default: build/)
#   --only NAME    only this harness (repeatable); names: see --list
#   --list         print the harnesses and exit
#
# Each harness starts from the committed seeds (fuzz/seeds/<name>), the seeds
# clang-22 made at build time (<build>/fuzz/seeds/<name>) and what earlier
# runs found (<build>/fuzz/corpus/<name>, where new inputs are added). A
# crash, a leak or a failed check stops that harness, keeps the input as
# <build>/fuzz/artifacts/<name>-crash-<sha1> and makes the script exit 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
seconds=
runs=
only=()
list=false

usage() {
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --list) list=true; shift ;;
    -h|--help) usage ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; usage ;;
    *) seconds=$1; shift ;;
  esac
done
build=$(cd "$build" 2>/dev/null && pwd) || {
  echo "fuzz.sh: no build tree at '$build'" >&2; exit 2; }

bindir=$build/fuzz/harnesses/bin
if ! ls "$bindir"/fuzz-* > /dev/null 2>&1; then
  echo "fuzz.sh: no fuzz harnesses in $bindir; build with" \
       "-DOFFLOAD_BUILD_FUZZERS=ON (needs clang-22 with libFuzzer," \
       "libclang-rt-22-dev)" >&2
  exit 2
fi
harnesses=()
for exe in "$bindir"/fuzz-*; do
  harnesses+=("${exe##*/fuzz-}")
done
if $list; then
  printf '%s\n' "${harnesses[@]}"
  exit 0
fi
if [ ${#only[@]} -gt 0 ]; then
  for name in "${only[@]}"; do
    if [ ! -x "$bindir/fuzz-$name" ]; then
      echo "fuzz.sh: no harness '$name' (have: ${harnesses[*]})" >&2
      exit 2
    fi
  done
  harnesses=("${only[@]}")
fi

limit=()
if [ -n "$runs" ]; then
  [[ $runs =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --runs needs a number, not '$runs'" >&2; exit 2; }
  limit=(-runs="$runs")
elif [[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ]; then
  limit=(-max_total_time="$seconds")
else
  echo "fuzz.sh: give the seconds per harness, or --runs N" >&2
  usage
fi
# libFuzzer's per-input hang guard: 25 s, times OFFLOAD_TEST_TIMEOUT_SCALE.
hang_s=$(awk -v s="${OFFLOAD_TEST_TIMEOUT_SCALE:-1}" 'BEGIN {
  if (s + 0 <= 0) s = 1; n = 25 * s; printf "%d", n == int(n) ? n : int(n) + 1 }')

logs=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX")
trap 'rm -rf "$logs"' EXIT
mkdir -p "$build/fuzz/artifacts"
failed=()
for name in "${harnesses[@]}"; do
  corpus=$build/fuzz/corpus/$name
  mkdir -p "$corpus"
  dirs=("$corpus" "$root/fuzz/seeds/$name")
  [ -d "$build/fuzz/seeds/$name" ] && dirs+=("$build/fuzz/seeds/$name")
  log=$logs/$name.log
  start=$(date +%s)
  # -timeout: an input taking this long is a hang, reported as a crash (an
  # input takes milliseconds; OFFLOAD_TEST_TIMEOUT_SCALE stretches the guard
  # for a slow or shared machine).
  # -rss_limit_mb: an input making the reader allocate this much is a bug.
  status=0
  "$bindir/fuzz-$name" "${limit[@]}" -print_final_stats=1 -timeout="$hang_s" \
    -rss_limit_mb=2560 -artifact_prefix="$build/fuzz/artifacts/$name-" \
    "${dirs[@]}" > "$log" 2>&1 || status=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $status -ne 0 ]; then
    echo "fuzz.sh: $name FAILED (exit $status) after ${elapsed}s; the end of its log:"
    tail -40 "$log"
    failed+=("$name")
  else
    printf 'fuzz.sh: %-18s %10s execs in %4ds (%s/s)\n' "$name" "${execs:-?}" \
      "$elapsed" "$(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: failed: ${failed[*]} (inputs kept in $build/fuzz/artifacts/)"
  exit 1
fi
