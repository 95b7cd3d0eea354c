#!/usr/bin/env bash
# The "upstream" build of the benchmarks: Debian's clang++-22 and
# libomptarget.so.22.1 (with its built-in CUDA plugin) plus upstream LLVM's
# own NVPTX device runtime, which Debian does not ship. That runtime is built
# here from openmp/device/ of the LLVM release matching the installed
# clang-22 (LLVM 22 keeps the former offload/DeviceRTL there), whose source
# tarball comes through apt's source mechanism
# (scripts/conformance/apt_source.py); nothing of it enters the project tree.
#
#   bench/upstream.sh --present      exit 0 when the tarball is already here
#   bench/upstream.sh --out DIR --lib DIR
#       builds the device runtime into DIR (DIR/flags: the clang++-22 flags
#       that use it; DIR/VERSION: what it was built from) and packs Debian's
#       libomptarget with its closure into <--lib>.tar.xz (libLLVM alone is
#       150 MB; run.sh unpacks it on the GPU machine).
#
# UPSTREAM_DATA (default: conformance-data beside the checkout, where
# scripts/conformance/fetch-upstream-lit.py keeps its tarball) holds the
# tarball and the unpacked sources.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
data=${UPSTREAM_DATA:-$(dirname "$root")/conformance-data}
apt_source=$root/scripts/conformance/apt_source.py

if [ "${1:-}" = --present ]; then
  command -v clang++-22 >/dev/null && "$apt_source" --data "$data" --present
  exit
fi
out=
lib=
while [ $# -gt 0 ]; do
  case $1 in
  --out) out=$2; shift 2 ;;
  --lib) lib=$2; shift 2 ;;
  *) echo "bench/upstream.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for tool in clang++-22 llvm-link-22; do
  command -v $tool >/dev/null || {
    echo "bench: upstream build skipped (no $tool)"
    exit 1
  }
done
debian_rt=/usr/lib/llvm-22/lib/libomptarget.so.22.1
[ -f "$debian_rt" ] || {
  echo "bench: upstream build skipped (no $debian_rt; install liboffload-22)"
  exit 1
}

# The device runtime's sources and the headers they include (RPC from libc,
# the shared offload headers). Where they were unpacked is read from a file
# of the helper's own, never from its output: a first run downloads, and its
# progress must never be taken for the path.
path_file=$(mktemp)
"$apt_source" --data "$data" --path-file "$path_file" openmp/device \
  offload/include libc/shared libc/src/__support libc/hdr libc/include \
  >/dev/null || { rm -f "$path_file"; exit 1; }
top=$(head -1 "$path_file")
rm -f "$path_file"
[ -d "$top/openmp/device" ] || {
  echo "bench: $apt_source named no unpacked source folder ('$top')" >&2
  exit 1
}
src=$top/openmp/device
mkdir -p "$out/obj"
# Flags as upstream's openmp/device/CMakeLists.txt builds it (a Release
# build, C++17), for one generic nvptx64 bitcode library.
flags=(--target=nvptx64-nvidia-cuda -std=c++17 -O3 -flto -fvisibility=hidden
  -nogpulib -nostdlibinc -fno-rtti -fno-exceptions -fconvergent-functions
  -Wno-unknown-cuda-version -mllvm -vectorize-slp=false
  --cuda-feature=+ptx63 -DSHARED_SCRATCHPAD_SIZE=512
  -I"$src/include" -I"$top/libc" -I"$top/offload/include")
objs=()
# Exactly the sources upstream's CMakeLists.txt lists.
for f in $(grep -o 'src/[A-Za-z_]*\.cpp' "$src/CMakeLists.txt"); do
  obj=$out/obj/$(basename "$f" .cpp).bc
  clang++-22 "${flags[@]}" -c "$src/$f" -o "$obj"
  objs+=("$obj")
done
llvm-link-22 "${objs[@]}" -o "$out/libomptarget-nvptx.bc"
rm -f "$out/libompdevice.a"
ar rcs "$out/libompdevice.a" "$out/libomptarget-nvptx.bc"
# Debian ships only the versioned library; the link needs -lomptarget.
ln -sf "$debian_rt" "$out/libomptarget.so"
rm -rf "$out/obj"

# The CUDA folder as clang looks for it; the ptxas on PATH may be a small
# script (/usr/local/bin/ptxas) whose folder above has no libdevice.
cuda=
ptxas=$(command -v ptxas || true)
for dir in ${CUDA_PATH:-} ${ptxas:+"$(dirname "$(dirname "$(readlink -f "$ptxas")")")"} \
  /usr/local/cuda; do
  if [ -x "$dir/bin/ptxas" ] && [ -d "$dir/nvvm/libdevice" ]; then
    cuda=--cuda-path=$dir
    break
  fi
done
echo "--libomptarget-nvptx-bc-path=$out/libomptarget-nvptx.bc -L$out" \
  "-Xoffload-linker -L$out $cuda" >"$out/flags"
version=$(basename "$top" | sed 's/^llvm-toolchain-22_//')
{
  echo "upstream LLVM $version openmp/device (from $(basename "$top").orig.tar.xz)"
  echo "clang: $(clang++-22 --version | head -1)"
  echo "sha256 $(sha256sum "$out/libomptarget-nvptx.bc" | cut -d' ' -f1)"
} >"$out/VERSION"
echo "bench: upstream device runtime $out/libomptarget-nvptx.bc," \
  "LLVM $version, built from the release source"

# Debian's libomptarget and what it needs, packed (see the header). Packing
# takes minutes, so the pack is kept in the data folder per package version.
pkg=$(dpkg-query -W -f='${Version}' liboffload-22 2>/dev/null || echo unknown)
cache=$data/upstream-lib-liboffload-22_$pkg.tar.xz
if [ ! -f "$cache" ]; then
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  cp -L "$debian_rt" "$stage/"
  for l in $(ldd "$debian_rt" | awk '/=> \// { print $3 }' | sort -u); do
    case $(basename "$l") in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
      ld-linux*.so.* | libcuda.so*) continue ;;
    esac
    cp -L "$l" "$stage/"
  done
  echo "bench: packing Debian's libomptarget closure ($(du -sh "$stage" |
    cut -f1)) into $cache (takes a few minutes, once)"
  tar -C "$stage" -cf - . | xz -T0 -6 >"$cache.part"
  mv "$cache.part" "$cache"
fi
cp "$cache" "$lib.tar.xz"
