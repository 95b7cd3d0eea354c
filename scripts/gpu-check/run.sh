#!/usr/bin/env bash
# Runs the GPU check kit that scripts/gpu-check/build.sh wrote next to this
# script. Needs nothing but this folder and, for the GPU programs, a CUDA
# driver.
#
#   run.sh              every GPU program, OMP_TARGET_OFFLOAD=MANDATORY
#   run.sh --cpu        the same sources built for the CPU device, with
#                       GPU_CHECK_SMALL=1 (saxpy at 2^24, not 2^28, elements)
#   run.sh --sanitize   the GPU programs under compute-sanitizer (memcheck)
#   run.sh --emulate    the programs build.sh --emulate built for the GPU
#                       emulator (emu/<arch>/, every arch built), on
#                       lib/gpu-emulator/, with GPU_CHECK_SMALL=1 and, where
#                       a program has emu/<arch>/<name>.args (its source's
#                       KIT-EMULATE-ARGS), those arguments (no GPU needed)
#   run.sh ... NAME...  only these programs
#   run.sh --bench [--cpu | --emulate] [--reps N] [--json FILE] [NAME...]
#                       the benchmarks instead (bench/run.sh: every build,
#                       interleaved, medians, a table and a JSON; with --cpu
#                       the CPU-device builds once, with --emulate ours built
#                       for the GPU emulator once, just checking they run)
#
# Prints each program's PASS/FAIL line and time, then `N passed, M failed`;
# exits non-zero when any program fails. Each program runs under a hang
# guard, never a speed verdict: GPU_CHECK_TIMEOUT seconds (default 300, the
# programs take seconds), times OFFLOAD_TEST_TIMEOUT_SCALE (default 1) and
# the load per core when the program starts (at least 1); a program still
# running then is killed and reported as "hang guard fired".
set -uo pipefail

kit=$(cd "$(dirname "$0")" && pwd)
kind=gpu
sanitize=0
names=()
for arg in "$@"; do
  if [ "$arg" = --bench ]; then
    args=()
    for a in "$@"; do [ "$a" = --bench ] || args+=("$a"); done
    exec "$kit/bench/run.sh" ${args[@]+"${args[@]}"}
  fi
done
for arg in "$@"; do
  case $arg in
  --cpu) kind=cpu; export GPU_CHECK_SMALL=1 ;;
  --emulate) kind=emu; export GPU_CHECK_SMALL=1 ;;
  --sanitize) sanitize=1 ;;
  -h | --help) sed -n '2,24p' "$0"; exit 0 ;;
  -*) echo "run.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  *) names+=("$arg") ;;
  esac
done

# The folders of programs: emu/ has one per emulated GPU arch.
dirs=("$kind")
if [ $kind = emu ]; then
  dirs=()
  for d in "$kit"/emu/*/; do [ -d "$d" ] && dirs+=("emu/$(basename "$d")"); done
fi
explicit=1
if [ ${#names[@]} -eq 0 ]; then
  explicit=0
  for d in ${dirs[@]+"${dirs[@]}"}; do
    for p in "$kit/$d"/*; do
      [ -f "$p" ] && [ -x "$p" ] && names+=("$(basename "$p")")
    done
  done
  # shellcheck disable=SC2207
  names=($(printf '%s\n' ${names[@]+"${names[@]}"} | sort -u))
fi
if [ ${#names[@]} -eq 0 ]; then
  echo "run.sh: no programs in $kit/$kind; run scripts/gpu-check/build.sh" >&2
  exit 1
fi

timeout_s=${GPU_CHECK_TIMEOUT:-300}
. "$kit/hang-limit.sh"
export OMP_TARGET_OFFLOAD=MANDATORY
export LD_LIBRARY_PATH=$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ $kind = emu ] && export LD_LIBRARY_PATH=$kit/lib/gpu-emulator:$LD_LIBRARY_PATH

wrapper=()
if [ $sanitize = 1 ]; then
  if [ $kind != gpu ]; then
    echo "run.sh: --sanitize is for the GPU programs" >&2
    exit 2
  fi
  sanitizer=$(command -v compute-sanitizer ||
    ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
  if [ -z "$sanitizer" ]; then
    echo "run.sh: no compute-sanitizer on this machine" >&2
    exit 1
  fi
  wrapper=("$sanitizer" --tool memcheck --error-exitcode 86
    --print-limit 20)
  timeout_s=$((timeout_s * 4))
fi

echo "gpu-check: $kind programs in $kit, $(date -u '+%Y-%m-%d %H:%M UTC')"
if [ $kind = gpu ] && command -v nvidia-smi >/dev/null; then
  nvidia-smi -L
  nvidia-smi --query-gpu=driver_version,name --format=csv,noheader |
    sed 's/^/driver, GPU: /'
fi

passed=0
failed=0
for dir in "${dirs[@]}"; do
  [ $kind = emu ] && echo "== $dir"
  for name in "${names[@]}"; do
    prog=$kit/$dir/$name
    # A program build.sh skipped for one emulated arch (say why it did).
    [ ! -x "$prog" ] && [ $kind = emu ] && [ $explicit = 0 ] && continue
    if [ ! -x "$prog" ]; then
      echo "FAIL $name: no program $prog"
      failed=$((failed + 1))
      continue
    fi
    args=()
    if [ -f "$prog.args" ]; then
      read -r -a args <"$prog.args"
      echo "  ($name runs with the arguments '${args[*]}' on the emulator)"
    fi
    log=$(mktemp)
    limit=$(hang_limit "$timeout_s")
    start=$(date +%s.%N)
    timeout --signal=KILL "$limit" ${wrapper[@]+"${wrapper[@]}"} "$prog" \
      ${args[@]+"${args[@]}"} >"$log" 2>&1
    rc=$?
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    verdict=$(grep -E "^(PASS|FAIL) $name( |:|$)" "$log" | tail -1)
    why=
    if [ $rc = 137 ] &&
      awk -v a="$secs" -v l="$limit" 'BEGIN { exit !(a >= l) }'; then
      why="hang guard fired after ${limit}s (GPU_CHECK_TIMEOUT=${timeout_s}s"
      why="$why x OFFLOAD_TEST_TIMEOUT_SCALE x load per core)"
    elif [ $rc = 137 ]; then
      why="killed (SIGKILL)"
    elif [ $rc = 86 ]; then
      why="compute-sanitizer reported errors"
    elif [ -z "$verdict" ]; then
      why="exited with status $rc and printed no verdict"
    elif [ $rc != 0 ] && [ "${verdict#PASS}" != "$verdict" ]; then
      why="printed PASS but exited with status $rc"
    fi
    if [ -z "$why" ] && [ "${verdict#PASS}" != "$verdict" ]; then
      printf '%-60s %8ss\n' "$verdict" "$secs"
      passed=$((passed + 1))
    else
      [ -n "$why" ] && verdict="FAIL $name: $why"
      printf '%-60s %8ss\n' "$verdict" "$secs"
      failed=$((failed + 1))
    fi
    # Measurements always; the whole output of a failure, for the fix.
    grep -E "^INFO $name:" "$log" | sed 's/^/  /'
    if [ "${verdict#PASS}" = "$verdict" ]; then
      grep -vE "^(INFO|PASS|FAIL) $name" "$log" | head -40 | sed 's/^/  | /'
    fi
    rm -f "$log"
  done
done

echo "$passed passed, $failed failed"
[ $failed = 0 ]
