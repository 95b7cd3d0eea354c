#!/bin/sh
# Builds and runs the indirect-call lookup benchmark against a build tree's
# CPU device runtime.  Usage: bench/indirect/run.sh [build-dir] [calls]
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd -P)
build=${1:-$here/../../build}
calls=${2:-2000000}
runtime="$build/lib/x86_64-pc-linux-gnu/libompdevice.a"
[ -f "$runtime" ] || { echo "run.sh: $runtime not found; build ompdevice first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang++-22 -std=c++17 -O2 "$here/LookupBench.cpp" "$runtime" -o "$out/LookupBench"
"$out/LookupBench" "$calls"
