#!/usr/bin/env bash
# Installs what is missing, then configures, builds and installs the project.
#   scripts/build.sh [build-dir]     (default: build; prefix: install/)
# OFFLOAD_PREFIX overrides the install prefix; OFFLOAD_JOBS the parallelism.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
prefix=${OFFLOAD_PREFIX:-$root/install}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --build "$build" ${OFFLOAD_JOBS:+-j "$OFFLOAD_JOBS"}
cmake --install "$build" > /dev/null
echo "build.sh: installed into $prefix"
