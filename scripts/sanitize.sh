#!/usr/bin/env bash
# Builds the project instrumented with a sanitizer, runs the runtime's
# end-to-end lit suites and every GoogleTest unit on it (the CUDA and AMDGPU
# plugins behind the fake drivers, the wrapper's thread pool and cache);
# fails on any test failure and on any sanitizer report (docs/Testing.md,
# "Sanitizers").
#
#   scripts/sanitize.sh thread|address [lit args...]
#
# thread:  ThreadSanitizer        build-tsan/, prefix install-tsan/
# address: AddressSanitizer with LeakSanitizer and UndefinedBehaviorSanitizer
#                                 build-asan/, prefix install-asan/
#
# The project is compiled by clang-22 with -DOFFLOAD_SANITIZER=<kind>, which
# instruments the host runtime libomptarget, its plugins, the CPU device
# runtime, the linker wrapper and shims, and the units. The lit suites then compile every
# test program with the same -fsanitize (lit parameter `sanitizer`), so the
# sanitizer runtime is in the executable. Every report goes to a log file of
# its own (log_path), which this script counts after the run: a report makes
# the run fail even where the test expected its program to fail.
# OFFLOAD_JOBS sets the build's parallelism; OFFLOAD_SANITIZE_SUITES the
# suites (folders of test/, default below). The benchmarks, the MLIR driver
# and the fuzz harnesses are left out of these builds (none runs here).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -lt 1 ] || { [ "$1" != thread ] && [ "$1" != address ]; }; then
  echo "usage: $0 thread|address [lit args...]" >&2
  exit 2
fi
kind=$1
shift
case $kind in
  thread) short=tsan ;;
  address) short=asan ;;
esac
build=$root/build-$short
prefix=$root/install-$short
llvm=/usr/lib/llvm-22
suites=${OFFLOAD_SANITIZE_SUITES:-e2e offload fortran device indirect/run}
start=$(date +%s)

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
  -DOFFLOAD_SANITIZER="$kind" -DOFFLOAD_BUILD_FUZZERS=OFF \
  -DOFFLOAD_ENABLE_BENCH=OFF -DOFFLOAD_ENABLE_MLIR=OFF
cmake --build "$build" ${OFFLOAD_JOBS:+-j "$OFFLOAD_JOBS"}
cmake --install "$build" > /dev/null
built=$(date +%s)

logs=$build/sanitizer-reports
rm -rf "$logs"
mkdir -p "$logs"
supp=$root/scripts/sanitizer
if [ "$kind" = thread ]; then
  # ignore_noninstrumented_modules: Debian's libomp (and libffi, libstdc++)
  # are not instrumented; Archer (OMP_TOOL_LIBRARIES, set by lit.cfg.py)
  # tells TSan about libomp's synchronisation.
  export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$supp/tsan.supp:log_path=$logs/tsan"
else
  export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:log_path=$logs/asan"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp"
fi

dirs=()
for suite in $suites; do
  dirs+=("$build/test/$suite")
done
status=0
"$llvm/bin/lit" -sv --time-tests --param sanitizer="$kind" "$@" "${dirs[@]}" ||
  status=$?
# The GoogleTest units: everything ctest runs except the lit runs (the
# suites above; lit-* entries compile programs without the sanitizer), the
# kit, the fuzz smoke runs (their own sanitizer builds) and the source-tree
# structure check.
units_status=0
ctest --test-dir "$build" --output-on-failure ${OFFLOAD_JOBS:+-j "$OFFLOAD_JOBS"} \
  -E '^(lit|lit-.*|gpu-check-kit-.*|fuzz-smoke-.*|structure)$' ||
  units_status=$?
if [ $units_status -ne 0 ]; then status=$units_status; fi
# Reports of programs that then failed (or of tests expecting a failure).
reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  for report in $reports; do
    echo "==== $report"
    cat "$report"
  done
  echo "sanitize.sh: $(echo "$reports" | wc -l) sanitizer report(s) (above)" >&2
  status=1
fi
end=$(date +%s)
echo "sanitize.sh $kind: suites: $suites; build $((built - start)) s," \
  "tests $((end - built)) s; status $status (units $units_status), reports:" \
  "$(echo -n "$reports" | grep -c . || true)"
exit $status
