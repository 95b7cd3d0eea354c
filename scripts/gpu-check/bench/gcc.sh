#!/usr/bin/env bash
# Checks for GCC's nvptx offloading (Debian's gcc-12-offload-nvptx) and
# copies what its programs need on a machine with only a CUDA driver into
# <bench>/gcc-lib: libgomp and its nvptx plugin, which libgomp dlopens by name
# (build.sh adds the programs' ldd closure). The device code itself is
# inside the executables (mkoffload). Exits 1 with a reason when GCC cannot
# offload here.
#
#   bench/gcc.sh <bench-out-dir>
set -euo pipefail

out=$1
if ! command -v g++-12 >/dev/null; then
  echo "bench: GCC build skipped (no g++-12)"
  exit 1
fi
if [ ! -x "$(g++-12 -print-prog-name=accel/nvptx-none/mkoffload 2>/dev/null)" ] &&
  ! ls /usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/mkoffload \
    >/dev/null 2>&1; then
  echo "bench: GCC build skipped (no nvptx mkoffload; install" \
    "gcc-12-offload-nvptx)"
  exit 1
fi
plugin=$(ls /usr/lib/x86_64-linux-gnu/libgomp-plugin-nvptx.so.1 2>/dev/null ||
  true)
if [ -z "$plugin" ]; then
  echo "bench: GCC build skipped (no libgomp-plugin-nvptx.so.1)"
  exit 1
fi
libgomp=$(g++-12 -print-file-name=libgomp.so.1)
mkdir -p "$out/gcc-lib"
cp -L "$libgomp" "$plugin" "$out/gcc-lib/"
