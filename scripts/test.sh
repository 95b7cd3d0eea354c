#!/usr/bin/env bash
# Set everything up, then run every test: GoogleTest units and lit suites,
# all through ctest. Exits non-zero when any test fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}

"$root/scripts/build.sh" "$build"
cd "$build"
ctest --output-on-failure ${OFFLOAD_JOBS:+-j "$OFFLOAD_JOBS"}
