#!/usr/bin/env bash
# The main job: set everything up, compile examples/saxpy.cpp with the
# installed shims and run it on the default device (the CPU device here).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${OFFLOAD_PREFIX:-$root/install}
export OFFLOAD_PREFIX=$prefix

"$root/scripts/build.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set -x
"$prefix/bin/clang++" -O2 -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu \
  "$root/examples/saxpy.cpp" -o "$out/saxpy"
"$out/saxpy"
