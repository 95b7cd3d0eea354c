#!/usr/bin/env bash
# Installs every Debian package the project needs, and only those missing.
# Runs `apt-get update` once, and only when something has to be installed.
# Nothing is downloaded from anywhere but Debian's archive.
set -euo pipefail

PACKAGES=(
  # Build tools.
  cmake ninja-build g++ pkg-config python3
  # The LLVM 22 toolchain we plug into.
  clang-22 clang-tools-22 flang-22 llvm-22 llvm-22-dev llvm-22-tools
  libomp-22-dev liboffload-22 lld-22 libclang-22-dev
  libmlir-22-dev mlir-22-tools
  # Kernel calls of unknown arity in the host plugin.
  libffi-dev
  # AddressSanitizer runtime for the sanitized runtime tests (test/e2e).
  libclang-rt-22-dev
  # Unit tests.
  googletest libgtest-dev
  # The benchmark runner's plot of ratios (bench/run).
  python3-matplotlib
  # GPU targets: AMD's device libraries (ocml/ockl) for amdgcn builds and the
  # HSA runtime the AMDGPU plugin loads (it finds no agent without a GPU).
  rocm-device-libs libhsa-runtime64-1
  # The GPU emulator's context switch between GPU threads (fcontext, linked
  # statically into lib/gpu-emulator/libgpuemu.so.1, the executor that the
  # emulated libcuda.so.1 and libhsa-runtime64.so.1 share).
  libboost-context1.74-dev
  # MPI + offload programs (test/mpi, docs/MPI.md): mpirun, and mpicxx/mpifort
  # driving our shims.
  openmpi-bin libopenmpi-dev
  # Parallel netCDF, which the stencil mini-app of
  # scripts/conformance/run-miniapps.py links (docs/Benchmarks.md).
  libpnetcdf-dev
  # The GPU check kit's GCC build of its benchmarks (g++-12/gfortran-12
  # -foffload=nvptx-none and libgomp's nvptx plugin, scripts/gpu-check/bench).
  gcc-12-offload-nvptx gfortran-12
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
      grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi

echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
  --no-install-recommends "${missing[@]}"
