# Sourced by build.sh and bench/build.sh: how the kit builds a program for
# the GPU emulator (docs/GPUEmulator.md). Not run on its own.

# The emulator's device triple for a GPU arch.
emu_triple_of() {
  case $1 in
  sm_*) echo nvptx64-nvidia-cuda ;;
  gfx*) echo amdgcn-amd-amdhsa ;;
  *) echo "gpu-check: the GPU emulator has no arch '$1'" >&2; return 1 ;;
  esac
}

# The driver library the emulator provides for a GPU arch, in
# <prefix>/lib/gpu-emulator.
emu_driver_of() {
  case $1 in
  sm_*) echo libcuda.so.1 ;;
  *) echo libhsa-runtime64.so.1 ;;
  esac
}

# The flags every compile and link for an emulated arch takes.
emu_flags_of() {
  echo "--offload-arch=$1 -Xoffload-linker-$(emu_triple_of "$1") --offload-emulate"
}

# Whether a compile for the emulated arch $1 must keep NVIDIA device code as
# bitcode (-foffload-lto): the emulator runs bitcode, not PTX.
emu_needs_lto() {
  case $1 in sm_*) return 0 ;; esac
  return 1
}

emu_offload_binary=$(command -v llvm-offload-binary-22 ||
  command -v llvm-offload-binary || echo /usr/lib/llvm-22/bin/llvm-offload-binary)

# emu_compile <arch> <driver> <source> <object> <flags...>: one compile for
# the emulated arch. clang keeps NVIDIA device code as bitcode with
# -foffload-lto; flang-22 has no such option, so its device code is compiled
# to bitcode alone, packaged, and embedded in the host object, as clang's
# -foffload-lto would.
emu_compile() {
  local arch=$1 driver=$2 src=$3 obj=$4 triple
  shift 4
  if ! emu_needs_lto "$arch"; then
    "$driver" "$@" -c "$src" -o "$obj"
  elif [ "$(basename "$driver")" != flang ]; then
    "$driver" "$@" -foffload-lto -c "$src" -o "$obj"
  else
    triple=$(emu_triple_of "$arch") &&
      "$driver" "$@" --offload-device-only -emit-llvm -c "$src" -o "$obj.dev.bc" &&
      "$emu_offload_binary" -o "$obj.offload" \
        "--image=file=$obj.dev.bc,triple=$triple,arch=$arch,kind=openmp" &&
      "$driver" "$@" --offload-host-only -Xflang -fembed-offload-object="$obj.offload" \
        -c "$src" -o "$obj"
  fi
}

# emu_link <arch> <driver> <output> <flags and objects...>: the link for the
# emulated arch (device LTO for NVIDIA, except for flang, whose objects
# already carry the bitcode).
emu_link() {
  local arch=$1 driver=$2 output=$3
  shift 3
  if emu_needs_lto "$arch" && [ "$(basename "$driver")" != flang ]; then
    "$driver" "$@" -foffload-lto -o "$output"
  else
    "$driver" "$@" -o "$output"
  fi
}
