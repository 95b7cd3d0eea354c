#!/usr/bin/env bash
# Builds the GPU check kit: self-checking OpenMP offload programs compiled
# through the installed shims for an NVIDIA GPU (sm_90 unless
# GPU_CHECK_ARCH says otherwise) and for the CPU device, plus the runtime
# closure they need on a machine that has nothing but a CUDA driver. Every
# program is also built for an AMD GPU (gfx90a unless GPU_CHECK_AMD_ARCH
# says otherwise), which needs no toolkit: those builds check that the AMD
# device link works for every kit program (CI runs them); they are not run.
#
#   scripts/gpu-check/build.sh [--prefix DIR] [--out DIR] [--cpu-only]
#                              [--with-upstream] [--emulate | --emulate-only]
#                              [--only NAME...]
#
# Runs after scripts/build.sh (it uses the installed prefix, default
# install/ or $OFFLOAD_PREFIX) and needs no GPU. Writes build/gpu-check/:
#   gpu/<name>   the programs for the GPU     cpu/<name>   the same, CPU device
#   amd/<name>   the same for the AMD GPU (built, not run by run.sh)
#   emu/<arch>/<name>  with --emulate: the same for the GPU emulator, for
#                each arch of GPU_CHECK_EMU_ARCHS (default sm_90), linked with
#                --offload-emulate (NVIDIA: -foffload-lto; Fortran, which
#                flang-22 cannot build with it, is compiled to device bitcode
#                and packaged in three steps); run by run.sh --emulate on
#                lib/gpu-emulator/ (docs/GPUEmulator.md). A source line
#                `KIT-EMULATE-ARGS: ...` gives the arguments the program
#                runs with there (emu/<arch>/<name>.args). --emulate-only
#                builds nothing else but the emulated benchmarks (the ctest
#                entries gpu-check-kit-emulated*)
#   lib/         our runtime and plugins, libomp, libffi... (found with ldd)
#   run.sh       runs them (see its header)
#   bench/       the benchmarks, built by ours, GCC and upstream LLVM where
#                each is available (bench/build.sh; --with-upstream builds
#                upstream's device runtime from LLVM's release source, a
#                ~200 MB download once), and with --emulate by ours for
#                each emulated arch (bench/emu-<arch>/, run by run.sh
#                --bench --emulate); not built with --only
#
# A program is tests/<name>.{cpp,c,f90,F90}, or a folder tests/<name>/ whose
# lib*.{cpp,f90} become a static library the other sources link with. A line
# `KIT-FLAGS: ...` in a source adds compiler flags to every step.
#
# The GPU programs need the CUDA toolkit's ptxas and nvlink (found where the
# linker wrapper looks: $CUDA_PATH/bin, PATH, /usr/local/cuda/bin); without
# them only the CPU and AMD programs are built, with --cpu-only only the CPU
# ones. The AMD programs need our amdgcn device runtime; a program whose
# source says `KIT-AMD-UNSUPPORTED: <why>` is skipped for AMD, with the
# reason. The kit must stay under 56 MiB with all its builds (what travels
# to a GPU machine); build.sh checks that.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=emulate.sh
. "$here/emulate.sh"
root=$(cd "$here/../.." && pwd)
prefix=${OFFLOAD_PREFIX:-$root/install}
out=$root/build/gpu-check
arch=${GPU_CHECK_ARCH:-sm_90}
amd_arch=${GPU_CHECK_AMD_ARCH:-gfx90a}
# The GPUs the emulator runs the kit for: each needs its driver in
# <prefix>/lib/gpu-emulator (emu_driver_of below).
read -r -a emu_archs <<<"${GPU_CHECK_EMU_ARCHS:-sm_90}"
only=()
cpu_only=0
with_upstream=0
emulate=0
while [ $# -gt 0 ]; do
  case $1 in
  --prefix) prefix=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --cpu-only) cpu_only=1; shift ;;
  --with-upstream) with_upstream=1; shift ;;
  --emulate) emulate=1; shift ;;
  --emulate-only) emulate=2; shift ;;
  --only) shift; only=("$@"); break ;;
  -h | --help) sed -n '2,44p' "$0"; exit 0 ;;
  *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

prefix=$(cd "$prefix" 2>/dev/null && pwd) || {
  echo "build.sh: no installed prefix at '$prefix'; run scripts/build.sh first" >&2
  exit 1
}
for tool in clang++ flang; do
  if [ ! -x "$prefix/bin/$tool" ]; then
    echo "build.sh: $prefix/bin/$tool is missing; run scripts/build.sh first" >&2
    exit 1
  fi
done

tests=$here/tests
export PATH=$prefix/bin:$PATH

kinds=(gpu cpu)
nvidia=1
if [ $cpu_only = 0 ]; then
  cuda_bin=
  for dir in ${CUDA_PATH:+"$CUDA_PATH/bin"} $(echo "$PATH" | tr ':' ' ') \
    /usr/local/cuda/bin; do
    if [ -x "$dir/ptxas" ] && [ -x "$dir/nvlink" ]; then cuda_bin=$dir; break; fi
  done
  if [ -z "$cuda_bin" ]; then
    echo "build.sh: no CUDA toolkit (ptxas, nvlink) found; building no" \
      "NVIDIA programs" >&2
    nvidia=0
  fi
fi
if [ $cpu_only = 1 ]; then
  kinds=(cpu)
else
  kinds=()
  [ $nvidia = 1 ] && kinds+=(gpu)
  kinds+=(cpu)
  if [ -f "$prefix/lib/amdgcn-amd-amdhsa/libompdevice.a" ]; then
    kinds+=(amd)
  else
    echo "build.sh: no amdgcn device runtime in $prefix; building no AMD" \
      "programs" >&2
  fi
fi

# Flags each device kind adds to every compile and link.
gpu_flags=(--offload-arch="$arch")
amd_flags=(--offload-arch="$amd_arch")
if [ $emulate != 0 ]; then
  [ $emulate = 2 ] && kinds=()
  for a in "${emu_archs[@]}"; do
    emu_triple_of "$a" >/dev/null || exit 2
    if [ ! -f "$prefix/lib/gpu-emulator/$(emu_driver_of "$a")" ]; then
      echo "build.sh: no GPU emulator for $a in $prefix/lib/gpu-emulator" >&2
      exit 1
    fi
    kinds+=("emu/$a")
  done
fi
cpu_flags=(-fopenmp-targets=x86_64-pc-linux-gnu)

names=()
for src in "$tests"/*; do
  base=$(basename "$src")
  case $base in
  check.h | *.inc | README*) continue ;;
  esac
  name=${base%.*}
  if [ ${#only[@]} -gt 0 ]; then
    keep=0
    for o in "${only[@]}"; do [ "$o" = "$name" ] && keep=1; done
    [ $keep = 1 ] || continue
  fi
  names+=("$name")
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The KIT-FLAGS lines of the given sources.
extra_flags() {
  sed -n 's/.*KIT-FLAGS:\(.*\)$/\1/p' "$@" | tr '\n' ' '
}

# Why the AMD device runtime cannot build program $1 (its sources' lines
# `KIT-AMD-UNSUPPORTED: <why>`: features the AMD runtime does not have;
# no kit program says so today), or nothing.
amd_unsupported() {
  local files=("$tests/$1".* "$tests/$1"/*)
  local existing=()
  for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
  [ ${#existing[@]} -gt 0 ] || return 0
  sed -n '/KIT-AMD-UNSUPPORTED:/{s/.*KIT-AMD-UNSUPPORTED: *//p;q;}' "${existing[@]}"
}

driver_for() {
  case $1 in
  *.f90 | *.F90) echo flang ;;
  *.c) echo clang ;;
  *) echo clang++ ;;
  esac
}

# The KIT-EMULATE-ARGS line of the given sources.
emulate_args() {
  sed -n 's/.*KIT-EMULATE-ARGS:\(.*\)$/\1/p' "$@" | head -1
}

# compile_one <driver> <source> <object> <flags...>: one compile, for the
# emulator when $arch is set.
compile_one() {
  local driver=$1 f=$2 obj=$3
  shift 3
  if [ -n "$arch" ]; then
    emu_compile "$arch" "$driver" "$f" "$obj" "$@"
  else
    "$driver" "$@" -c "$f" -o "$obj"
  fi
}

# build_one <name> <kind: gpu|amd|cpu|emu/ARCH> -> $out/<kind>/<name>; log
# in $work.
build_one() {
  local name=$1 kind=$2 flags objdir log srcs=() libsrcs=() objs=() driver
  local arch=
  case $kind in
  gpu) flags=("${gpu_flags[@]}") ;;
  amd) flags=("${amd_flags[@]}") ;;
  emu/*)
    arch=${kind#emu/}
    # shellcheck disable=SC2207
    flags=($(emu_flags_of "$arch"))
    ;;
  *) flags=("${cpu_flags[@]}") ;;
  esac
  objdir=$work/$kind/$name
  log=$work/$kind-$name.log
  mkdir -p "$objdir" "$out/$kind"
  if [ -d "$tests/$name" ]; then
    for f in "$tests/$name"/*; do
      case $(basename "$f") in
      lib*.cpp | lib*.c | lib*.f90 | lib*.F90) libsrcs+=("$f") ;;
      *.cpp | *.c | *.f90 | *.F90) srcs+=("$f") ;;
      esac
    done
  else
    srcs=("$(ls "$tests/$name".* | head -1)")
  fi
  # shellcheck disable=SC2207
  local extra=($(extra_flags "${srcs[@]}" ${libsrcs[@]+"${libsrcs[@]}"}))
  local common=(-O2 -fopenmp "${flags[@]}" -I"$tests" ${extra[@]+"${extra[@]}"})
  # Every step says `|| return 1`: build_one runs under `if`, where bash
  # ignores set -e.
  {
    for f in "${srcs[@]}" ${libsrcs[@]+"${libsrcs[@]}"}; do
      driver=$(driver_for "$f")
      local def=(-DKIT_NAME="\"$name\"")
      case $f in *.f90) def=() ;; esac
      compile_one "$driver" "$f" "$objdir/$(basename "$f").o" "${common[@]}" \
        ${def[@]+"${def[@]}"} || return 1
    done
    for f in "${srcs[@]}"; do objs+=("$objdir/$(basename "$f").o"); done
    if [ ${#libsrcs[@]} -gt 0 ]; then
      rm -f "$objdir/lib$name.a"
      for f in "${libsrcs[@]}"; do
        ar rcs "$objdir/lib$name.a" "$objdir/$(basename "$f").o" || return 1
      done
      objs+=("$objdir/lib$name.a")
    fi
    # Link with the driver of the main program's language.
    driver=$(driver_for "${srcs[0]}")
    if [ -n "$arch" ]; then
      emu_link "$arch" "$driver" "$out/$kind/$name.tmp" "${common[@]}" \
        "${objs[@]}" || return 1
    else
      "$driver" "${common[@]}" "${objs[@]}" -o "$out/$kind/$name.tmp" ||
        return 1
    fi
    mv "$out/$kind/$name.tmp" "$out/$kind/$name" || return 1
    local args
    args=$(emulate_args "${srcs[@]}" ${libsrcs[@]+"${libsrcs[@]}"})
    if [ -n "$arch" ] && [ -n "$args" ]; then
      echo "$args" >"$out/$kind/$name.args"
    fi
  } >"$log" 2>&1
}

rm -rf "$out"
mkdir -p "$out/gpu" "$out/cpu" "$out/amd" "$out/lib"
if [ $emulate != 0 ]; then
  # The drivers and the executor library they share.
  mkdir -p "$out/lib/gpu-emulator"
  cp -L "$prefix"/lib/gpu-emulator/*.so* "$out/lib/gpu-emulator/"
  for a in "${emu_archs[@]}"; do mkdir -p "$out/emu/$a"; done
fi
failed=()
for name in "${names[@]}"; do
  for kind in "${kinds[@]}"; do
    if [ "$kind" = amd ] && why=$(amd_unsupported "$name") && [ -n "$why" ]; then
      echo "skipped amd/$name: $why"
      continue
    fi
    if build_one "$name" "$kind"; then
      echo "built $kind/$name"
    else
      echo "build.sh: $kind/$name failed to build:" >&2
      sed 's/^/  /' "$work/$kind-$name.log" >&2
      failed+=("$kind/$name")
    fi
  done
done

# The benchmarks (bench/build.sh says which toolchains it found); their
# programs built by ours join the closure below.
bench_args=(--prefix "$prefix" --out "$out/bench" --arch "$arch")
{ [ $cpu_only = 1 ] || [ "${nvidia:-1}" = 0 ]; } && bench_args+=(--cpu-only)
[ $with_upstream = 1 ] && bench_args+=(--with-upstream)
if [ $emulate != 0 ]; then
  for a in "${emu_archs[@]}"; do bench_args+=(--emulate "$a"); done
  [ $emulate = 2 ] && bench_args+=(--emulate-only)
fi
if [ ${#only[@]} -eq 0 ] && ! "$here/bench/build.sh" "${bench_args[@]}"; then
  failed+=(bench)
fi

# The runtime closure. Plugins are dlopen'ed, so ldd of the programs does
# not show them: take them (and what they need) explicitly. Only the C
# library's own pieces and the GPU driver are left to the target machine.
closure_of() {
  ldd "$@" 2>/dev/null | awk '/=> \// { print $3 }' | sort -u
}
is_system_lib() {
  case $(basename "$1") in
  libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
    ld-linux*.so.* | libcuda.so* | libhsa-runtime64.so*) return 0 ;;
  esac
  return 1
}
plugins=("$prefix"/lib/libomptarget.rtl.host.so "$prefix"/lib/libomptarget.rtl.cuda.so)
# An emulated AMD GPU runs through the AMDGPU plugin.
case " ${emu_archs[*]} " in
*" gfx"*) [ $emulate != 0 ] && plugins+=("$prefix"/lib/libomptarget.rtl.amdgpu.so) ;;
esac
roots=("$prefix"/lib/libomptarget.so.* "${plugins[@]}")
for p in "$out"/gpu/* "$out"/cpu/* "$out"/emu/*/* "$out"/bench/ours/* \
  "$out"/bench/cpu/* "$out"/bench/emu-*/*; do
  [ -f "$p" ] && roots+=("$p")
done
for lib in "$prefix"/lib/libomptarget.so.* "${plugins[@]}" \
  $(closure_of "${roots[@]}"); do
  [ -e "$out/lib/$(basename "$lib")" ] && continue
  is_system_lib "$lib" && continue
  cp -L "$lib" "$out/lib/"
done
# Programs are linked against the soname; the runtime finds its plugins
# next to itself.
ln -sf "$(basename "$prefix"/lib/libomptarget.so.*)" "$out/lib/libomptarget.so"

cp "$here/run.sh" "$here/hang-limit.sh" "$out/"
chmod +x "$out/run.sh"
kib=$(du -sk "$out" | cut -f1)
echo "build.sh: kit in $out, $((kib / 1024)) MiB"
if [ "$kib" -gt $((56 * 1024)) ]; then
  echo "build.sh: the kit is larger than 56 MiB, the most a GPU machine is sent" >&2
  exit 1
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "build.sh: ${#failed[@]} program(s) failed to build: ${failed[*]}" >&2
  exit 1
fi
