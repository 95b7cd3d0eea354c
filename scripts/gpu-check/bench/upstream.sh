#!/usr/bin/env bash
# The "upstream" build of the benchmarks: Debian's clang++-22 and
# libomptarget.so.22.1 (with its built-in CUDA plugin) plus upstream LLVM's
# own NVPTX device runtime, which Debian does not ship. That runtime is built
# here from offload/DeviceRTL of the LLVM release matching the installed
# clang-22, whose source tarball comes through apt's source mechanism
# (scripts/conformance/apt_source.py); nothing of it enters the project tree.
#
#   bench/upstream.sh --present      exit 0 when the tarball is already here
#   bench/upstream.sh --out DIR --lib DIR
#       builds the device runtime into DIR (DIR/flags: the clang++-22 flags
#       that use it) and copies Debian's libomptarget closure into --lib.
#
# UPSTREAM_DATA (default: conformance-data beside the checkout, where
# scripts/conformance/fetch-upstream-lit.py keeps its tarball) holds the
# tarball and the unpacked sources.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
data=${UPSTREAM_DATA:-$(dirname "$root")/conformance-data}
version=$(dpkg-query -W -f='${Version}' clang-22 2>/dev/null |
  sed 's/^[0-9]*://; s/[-~].*//')
tarball=$data/llvm-toolchain-22_$version.orig.tar.xz

if [ "${1:-}" = --present ]; then
  [ -n "$version" ] && [ -f "$tarball" ]
  exit
fi
echo "bench: upstream build not available yet (device runtime build missing)"
exit 1
