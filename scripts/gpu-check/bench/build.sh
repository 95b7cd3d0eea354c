#!/usr/bin/env bash
# Builds the kit's benchmarks (this folder) into <out>, the bench/ folder of
# the kit; scripts/gpu-check/build.sh calls it. Every program is built from
# the same source by up to three toolchains:
#   cpu/       ours (the installed shims), for the CPU device
#   ours/      ours, --offload-arch=$arch                  (needs CUDA's ptxas)
#   gcc/       g++-12/gfortran-12 -foffload=nvptx-none     (needs Debian's
#              gcc-12-offload-nvptx), with gcc-lib/: libgomp and its nvptx
#              plugin, which libgomp dlopens by name
#   upstream/  clang++-22 with upstream LLVM's own NVPTX device runtime and
#              Debian's libomptarget (only with --with-upstream or when the
#              release tarball is already there; see upstream.sh), whose
#              closure goes beside the kit: <kit>-upstream/upstream-lib.tar.xz
#   emu-<arch>/ with --emulate ARCH (repeatable): ours for the GPU emulator
#              (--offload-emulate), run by run.sh --bench --emulate; with
#              --emulate-only nothing else is built
# A toolchain that is missing is skipped with a printed reason.
#
#   bench/build.sh --prefix DIR --out DIR [--arch sm_90] [--cpu-only]
#                  [--with-upstream] [--emulate ARCH]... [--emulate-only]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../emulate.sh
. "$here/../emulate.sh"
prefix=
out=
arch=sm_90
cpu_only=0
with_upstream=0
emu_archs=()
emulate_only=0
while [ $# -gt 0 ]; do
  case $1 in
  --prefix) prefix=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --arch) arch=$2; shift 2 ;;
  --cpu-only) cpu_only=1; shift ;;
  --with-upstream) with_upstream=1; shift ;;
  --emulate) emu_archs+=("$2"); shift 2 ;;
  --emulate-only) emulate_only=1; shift ;;
  -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
  *) echo "bench/build.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$prefix" ] && [ -n "$out" ] || {
  echo "bench/build.sh: --prefix and --out are required" >&2
  exit 2
}

rm -rf "$out"
mkdir -p "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=()

# closure <dir> <files...>: the shared libraries the files need, into <dir>;
# the C library's own pieces and the GPU driver stay the target machine's.
closure() {
  local dir=$1 lib
  shift
  mkdir -p "$dir"
  for lib in $(ldd "$@" 2>/dev/null | awk '/=> \// { print $3 }' | sort -u); do
    case $(basename "$lib") in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
      ld-linux*.so.* | libcuda.so*) continue ;;
    esac
    [ -e "$dir/$(basename "$lib")" ] || cp -L "$lib" "$dir/"
  done
}

# build_program <build> <driver> <source> <output> <flags...>: one program;
# a build named emu-<arch> is for the GPU emulator.
build_program() {
  local build=$1 driver=$2 src=$3 output=$4 arch
  shift 4
  case $build in
  emu-*)
    arch=${build#emu-}
    # shellcheck disable=SC2046
    emu_compile "$arch" "$driver" "$src" "$output.o" "$@" \
      $(emu_flags_of "$arch") &&
      # shellcheck disable=SC2046
      emu_link "$arch" "$driver" "$output" "$@" $(emu_flags_of "$arch") \
        "$output.o"
    local rc=$?
    rm -f "$output".o*
    return $rc
    ;;
  *) "$driver" "$@" "$src" -o "$output" ;;
  esac
}

# compile <build> <c++ driver> <fortran driver> <flags...>: every program
# into $out/<build>/.
compile() {
  local build=$1 cxx=$2 fc=$3 src name driver
  shift 3
  mkdir -p "$out/$build"
  for src in "$here"/*.cpp "$here"/*.f90; do
    name=$(basename "${src%.*}")
    driver=$cxx
    case $src in *.f90) driver=$fc ;; esac
    if [ -z "$driver" ]; then
      echo "bench: $build/$name skipped (no Fortran offload compiler here)"
      continue
    fi
    if build_program "$build" "$driver" "$src" "$out/$build/$name" -O2 \
      -fopenmp "$@" -I"$here" >"$log" 2>&1; then
      echo "built bench/$build/$name"
    else
      echo "bench/build.sh: $build/$name failed to build:" >&2
      sed 's/^/  /' "$log" >&2
      failed+=("$build/$name")
    fi
  done
}

for a in ${emu_archs[@]+"${emu_archs[@]}"}; do
  emu_triple_of "$a" >/dev/null || exit 2
  compile "emu-$a" "$prefix/bin/clang++" "$prefix/bin/flang"
done
if [ $emulate_only = 0 ]; then
  compile cpu "$prefix/bin/clang++" "$prefix/bin/flang" \
    -fopenmp-targets=x86_64-pc-linux-gnu
fi
if [ $emulate_only = 1 ]; then
  echo "bench: only the emulated builds (--emulate-only)"
elif [ $cpu_only = 1 ]; then
  echo "bench: only the CPU-device builds (no CUDA toolkit or --cpu-only)"
else
  compile ours "$prefix/bin/clang++" "$prefix/bin/flang" --offload-arch="$arch"
  "$here/gcc.sh" "$out" && compile gcc g++-12 \
    "$(command -v gfortran-12 || true)" -foffload=nvptx-none \
    -foffload-options=nvptx-none=-misa=sm_80 &&
    closure "$out/gcc-lib" "$out"/gcc/*
  if [ $with_upstream = 1 ] || "$here/upstream.sh" --present; then
    # Debian's libomptarget closure is ~40 MB even compressed (libLLVM):
    # it lives beside the kit, <kit>-upstream/, to be carried separately.
    side=$(dirname "$out")-upstream
    rm -rf "$side"
    mkdir -p "$side"
    if "$here/upstream.sh" --out "$out/upstream-rtl" --lib "$side/upstream-lib"; then
      # shellcheck disable=SC2046
      compile upstream clang++-22 "" --offload-arch="$arch" \
        $(cat "$out/upstream-rtl/flags")
      # Only for the link (it points at this machine's Debian library).
      rm -f "$out/upstream-rtl/libomptarget.so"
      sed 's/^/bench: /' "$out/upstream-rtl/VERSION"
      # The kernels' resources (registers, stack, shared memory, the
      # occupancy they allow), ours against upstream, read from the two
      # builds here, where the LLVM tools are (bench/kernel-resources of the
      # checkout; the kit carries the table, kernel-resources.txt).
      kr=$here/../../../bench/kernel-resources/kernel_resources.py
      if [ -f "$kr" ] && python3 "$kr" --images ours="$out/ours" \
        --images upstream="$out/upstream" --arch "$arch" \
        >"$out/kernel-resources.txt" 2>&1; then
        echo "bench: kernel resources, ours against upstream, in" \
          "$out/kernel-resources.txt:"
        grep -E '^[a-z_0-9-]+: [0-9]+ kernels' "$out/kernel-resources.txt" |
          sed 's/^/bench:   /'
      else
        echo "bench: kernel resources not read (see $out/kernel-resources.txt)"
      fi
      echo "bench: Debian's libomptarget closure in $side," \
        "$(($(du -sk "$side" | cut -f1) / 1024)) MiB (carry it apart from the kit)"
    else
      echo "bench: upstream build skipped (upstream.sh failed, see above)"
    fi
  else
    echo "bench: upstream build skipped (ask with build.sh --with-upstream;" \
      "it downloads LLVM's release source, ~200 MB, once)"
  fi
fi
cp "$here/run.sh" "$here/../hang-limit.sh" "$out/"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench/build.sh: ${#failed[@]} benchmark(s) failed: ${failed[*]}" >&2
  exit 1
fi
