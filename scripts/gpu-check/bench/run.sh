#!/usr/bin/env bash
# Runs the kit's benchmarks (the kit's run.sh --bench comes here).
#
#   bench/run.sh [--cpu | --emulate] [--reps N] [--json FILE] [NAME...]
#
# GPU: every program of every build present (ours/, upstream/, gcc/),
# interleaved (repetition r runs each program under ours, upstream, gcc
# before repetition r+1), N repetitions (default 3, GPU_CHECK_BENCH_REPS);
# prints the median of every row per build and the ratios to ours, and
# writes them as JSON (default bench-<date>.json in the current folder).
# --cpu: the CPU-device builds once, GPU_CHECK_SMALL=1, printing their rows;
# no timing is judged, a program only has to run and print its rows.
# --emulate: the same for ours built for the GPU emulator (emu-<arch>/, from
# build.sh --emulate), on lib/gpu-emulator/, with GPU_CHECK_EMULATED=1 as
# well (sizes an eighth of the small ones: an emulated launch costs about a
# millisecond): the GPU plugins and device runtime run every benchmark, no
# GPU needed; the time each took is printed, never judged.
# Exits non-zero when a program fails (BENCH-FAIL, a crash, no rows, or
# killed by its hang guard: GPU_CHECK_BENCH_TIMEOUT seconds, default 60 on a
# GPU, where the whole --bench must fit a 10-minute device call, and 300 with
# --cpu or --emulate; times OFFLOAD_TEST_TIMEOUT_SCALE, default 1, and the
# load per core when the program starts, at least 1).
set -uo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$bench/.." && pwd)
check_only=
reps=${GPU_CHECK_BENCH_REPS:-3}
json=bench-$(date -u +%Y%m%d-%H%M%S).json
names=()
while [ $# -gt 0 ]; do
  case $1 in
  --cpu) check_only=cpu; shift ;;
  --emulate) check_only=emu; shift ;;
  --reps) reps=$2; shift 2 ;;
  --json) json=$2; shift 2 ;;
  -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
  -*) echo "bench/run.sh: unknown option '$1'" >&2; exit 2 ;;
  *) names+=("$1"); shift ;;
  esac
done

export OMP_TARGET_OFFLOAD=MANDATORY
builds=()
if [ -n "$check_only" ]; then
  export GPU_CHECK_SMALL=1
  reps=1
  if [ $check_only = cpu ]; then
    [ -d "$bench/cpu" ] && builds=(cpu)
  else
    export GPU_CHECK_EMULATED=1
    for d in "$bench"/emu-*/; do [ -d "$d" ] && builds+=("$(basename "$d")"); done
  fi
else
  for b in ours upstream gcc; do [ -d "$bench/$b" ] && builds+=("$b"); done
fi
if [ ${#builds[@]} -eq 0 ]; then
  case $check_only in
  emu) why="emulated builds (build the kit with build.sh --emulate)" ;;
  cpu) why="CPU-device builds" ;;
  *) why="GPU builds (built without CUDA?)" ;;
  esac
  echo "bench/run.sh: no $why in $bench" >&2
  exit 1
fi
if [ ${#names[@]} -eq 0 ]; then
  for p in "$bench/${builds[0]}"/*; do names+=("$(basename "$p")"); done
fi

# Each build's libraries: ours (and the CPU builds) use the kit's lib/, the
# emulated builds the emulator's drivers before it.
libs_of() {
  case $1 in
  gcc) echo "$bench/gcc-lib" ;;
  upstream)
    if [ -d "$bench/upstream-lib" ]; then echo "$bench/upstream-lib"
    else echo "$unpacked/upstream-lib"; fi ;;
  emu-*) echo "$kit/lib/gpu-emulator:$kit/lib" ;;
  *) echo "$kit/lib" ;;
  esac
}

rows=$(mktemp)
out=$(mktemp)
unpacked=$(mktemp -d)
trap 'rm -rf "$rows" "$out" "$unpacked"' EXIT
# Upstream's libraries travel compressed and apart from the kit
# (<kit>-upstream/, libLLVM alone is 150 MB).
packed=$kit-upstream/upstream-lib.tar.xz
if [ -z "$check_only" ] && [ -d "$bench/upstream" ] &&
  [ ! -d "$bench/upstream-lib" ]; then
  if [ -f "$packed" ]; then
    mkdir -p "$unpacked/upstream-lib"
    tar -C "$unpacked/upstream-lib" -xJf "$packed" || {
      echo "bench/run.sh: cannot unpack $packed" >&2
      exit 1
    }
    # libomptarget also dlopens "libomp.so": let that find the libomp.so.5
    # already loaded, not a second OpenMP runtime of the machine's.
    ln -sf libomp.so.5 "$unpacked/upstream-lib/libomp.so"
  else
    echo "bench: no $packed (carry it with the kit); upstream not run"
    builds=(${builds[@]/upstream/})
  fi
fi
failed=0
# A hang guard, never a speed verdict. Short on a GPU: the whole --bench must
# fit a 10-minute device call.
timeout_s=60
[ -n "$check_only" ] && timeout_s=300
timeout_s=${GPU_CHECK_BENCH_TIMEOUT:-$timeout_s}
. "$bench/hang-limit.sh"
for r in $(seq 1 "$reps"); do
  for name in "${names[@]}"; do
    for b in "${builds[@]}"; do
      prog=$bench/$b/$name
      [ -x "$prog" ] || continue
      limit=$(hang_limit "$timeout_s")
      start=$(date +%s.%N)
      LD_LIBRARY_PATH=$(libs_of "$b")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        timeout --signal=KILL "$limit" "$prog" >"$out" 2>&1
      rc=$?
      secs=$(awk -v a="$start" -v b="$(date +%s.%N)" \
        'BEGIN { printf "%.2f", b - a }')
      if [ $rc = 137 ] &&
        awk -v a="$secs" -v l="$limit" 'BEGIN { exit !(a >= l) }'; then
        echo "FAIL $b/$name: hang guard fired after $limit s" \
          "(GPU_CHECK_BENCH_TIMEOUT=$timeout_s s x OFFLOAD_TEST_TIMEOUT_SCALE" \
          "x load per core)"
        failed=$((failed + 1))
      elif [ $rc != 0 ] || ! grep -q '^ROW ' "$out"; then
        echo "FAIL $b/$name (exit $rc):"
        grep -v '^ROW ' "$out" | head -20 | sed 's/^/  | /'
        failed=$((failed + 1))
      fi
      [ -n "$check_only" ] && sed "s|^|$b/$name: |" "$out" | grep 'ROW ' &&
        echo "$b/$name: ran in $secs s"
      sed -n "s|^ROW name=\([^ ]*\) value=\([^ ]*\) unit=\([^ ]*\).*|$b \1 \2 \3|p" \
        "$out" >>"$rows"
    done
  done
done

if [ -n "$check_only" ]; then
  echo "bench --$([ $check_only = emu ] && echo emulate || echo cpu):" \
    "$(wc -l <"$rows") rows from ${#names[@]} programs, ${#builds[@]}" \
    "build(s), $failed failed"
  [ $failed = 0 ] && [ -s "$rows" ]
  exit
fi

# Medians per (row, build), then a table with ratios to ours and the JSON.
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  2>/dev/null | head -1 | tr -d '"')
awk -v builds="${builds[*]}" -v json="$json" -v reps="$reps" \
  -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v gpu="${gpu:-unknown}" '
function median(key,   n, i, j, t, v) {
  n = split(vals[key], v, " ")
  for (i = 1; i <= n; i++)
    for (j = i + 1; j <= n; j++)
      if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
  return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
  key = $2 SUBSEP $1
  vals[key] = vals[key] " " $3
  unit[$2] = $4
  if (!($2 in seen)) { seen[$2] = 1; order[++nrows] = $2 }
}
END {
  nb = split(builds, b, " ")
  printf "%-30s %-5s", "row", "unit"
  for (i = 1; i <= nb; i++) printf " %12s", b[i]
  for (i = 2; i <= nb; i++) printf " %10s", b[i] "/ours"
  printf "\n"
  printf "{\n  \"date\": \"%s\",\n  \"gpu\": \"%s\",\n", date, gpu > json
  printf "  \"repetitions\": %d,\n  \"rows\": [\n", reps > json
  for (k = 1; k <= nrows; k++) {
    row = order[k]
    printf "%-30s %-5s", row, unit[row]
    printf "    {\"row\": \"%s\", \"unit\": \"%s\"", row, unit[row] > json
    for (i = 1; i <= nb; i++) {
      m[i] = ((row, b[i]) in vals) ? median(row SUBSEP b[i]) : "-"
      printf " %12s", m[i] == "-" || m[i] == "nan" ? m[i] : sprintf("%.4g", m[i])
      if (m[i] != "-" && m[i] != "nan")
        printf ", \"%s\": %s", b[i], m[i] > json
    }
    for (i = 2; i <= nb; i++) {
      ok = m[1] != "-" && m[i] != "-" && m[1] != "nan" && m[i] != "nan" && m[1] + 0 != 0
      printf " %10s", ok ? sprintf("%.3f", m[i] / m[1]) : "-"
    }
    printf "\n"
    printf "}%s\n", k < nrows ? "," : "" > json
  }
  printf "  ]\n}\n" > json
}' "$rows"
echo "bench: medians of $reps repetitions written to $json" \
  "(times: lower is better; GB/s and shares: higher is better)"
echo "bench: $failed program run(s) failed"
# The kernels' resources, ours against upstream (registers, stack, shared
# memory, the occupancy they allow), read from the same builds when the kit
# was built (bench/build.sh; the GPU machine has no LLVM tools to read
# them): what the timings above may owe to them.
if [ -f "$bench/kernel-resources.txt" ]; then
  echo "bench: kernel resources of ours/ and upstream/ (bench/README.md of" \
    "the checkout, 'Kernel resources', says how to read them):"
  cat "$bench/kernel-resources.txt"
fi
[ $failed = 0 ]
