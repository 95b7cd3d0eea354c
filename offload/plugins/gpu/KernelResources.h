//===- KernelResources.h - A kernel's registers, memory, occupancy -*- C++ -*-//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a kernel takes of a multiprocessor, for LIBOMPTARGET_INFO's launch
// line: its registers and stack per thread and its shared memory per block
// (the plugins ask the driver or read the code object), and the occupancy
// those give a launch: how many of the multiprocessor's warps can be
// resident at once, and which resource stops more. The occupancy is
// computed as NVIDIA's occupancy calculator does, from the device's
// published limits (OccupancyLimits), not measured.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_KERNELRESOURCES_H
#define OFFLOAD_PLUGINS_GPU_KERNELRESOURCES_H

#include <cstdint>
#include <string>

namespace offload {
namespace plugin {

/// A kernel's resources; a figure the driver or code object did not give
/// is left unknown (its Has* flag false).
struct KernelResources {
  bool HasRegisters = false;
  uint32_t Registers = 0;
  bool HasStack = false;
  /// Bytes of stack (local memory, private segment) per thread.
  uint32_t StackBytes = 0;
  /// Static shared memory (LDS) per block.
  uint64_t StaticShared = 0;
};

/// One multiprocessor's limits; 0: the limit is not known and not applied.
struct OccupancyLimits {
  uint32_t WarpSize = 32;
  uint32_t MaxWarps = 0;
  uint32_t MaxBlocks = 0;
  uint32_t Registers = 0;
  /// Registers are given to a warp in units of this many (256 on sm_90).
  uint32_t RegisterUnit = 256;
  uint64_t SharedMemory = 0;
  /// Shared memory is given to a block in units of this many bytes, after
  /// what the driver keeps for itself in every block.
  uint32_t SharedUnit = 128;
  uint32_t SharedReservedPerBlock = 0;
};

/// NVIDIA's published limits for compute capability \p Major.\p Minor that
/// no driver attribute gives: the register allocation unit, and the shared
/// memory the driver keeps per block (1 KiB from sm_80 on). The rest the
/// plugin asks the driver for.
inline OccupancyLimits publishedCUDALimits(int Major, int Minor) {
  (void)Minor;
  OccupancyLimits L;
  L.RegisterUnit = 256;
  L.SharedUnit = 128;
  L.SharedReservedPerBlock = Major >= 8 ? 1024 : 0;
  return L;
}

/// What limits a launch's resident blocks per multiprocessor.
struct Occupancy {
  uint32_t BlocksPerSM = 0;
  uint32_t WarpsPerSM = 0;
  uint32_t MaxWarps = 0;
  /// "warps", "blocks", "registers", "shared memory"; null when nothing is
  /// known.
  const char *LimitedBy = nullptr;
};

/// The occupancy of blocks of \p Threads threads, each thread with
/// \p Resources' registers and each block with \p SharedPerBlock bytes of
/// shared memory (static plus dynamic), under \p Limits.
inline Occupancy computeOccupancy(const OccupancyLimits &Limits,
                                  const KernelResources &Resources,
                                  uint64_t Threads, uint64_t SharedPerBlock) {
  Occupancy Result;
  if (!Limits.MaxWarps || !Threads || !Limits.WarpSize)
    return Result;
  uint64_t WarpsPerBlock = (Threads + Limits.WarpSize - 1) / Limits.WarpSize;
  uint64_t Best = Limits.MaxWarps / WarpsPerBlock;
  Result.LimitedBy = "warps";
  auto Apply = [&](uint64_t Blocks, const char *What) {
    if (Blocks < Best) {
      Best = Blocks;
      Result.LimitedBy = What;
    }
  };
  if (Limits.MaxBlocks)
    Apply(Limits.MaxBlocks, "blocks");
  if (Resources.HasRegisters && Resources.Registers && Limits.Registers) {
    // Each warp gets its threads' registers rounded up to the unit; a
    // block needs all its warps' at once.
    uint64_t Unit = Limits.RegisterUnit ? Limits.RegisterUnit : 1;
    uint64_t PerWarp =
        (uint64_t(Resources.Registers) * Limits.WarpSize + Unit - 1) / Unit *
        Unit;
    Apply(Limits.Registers / PerWarp / WarpsPerBlock, "registers");
  }
  if (SharedPerBlock && Limits.SharedMemory) {
    uint64_t Unit = Limits.SharedUnit ? Limits.SharedUnit : 1;
    uint64_t Block =
        (SharedPerBlock + Limits.SharedReservedPerBlock + Unit - 1) / Unit *
        Unit;
    Apply(Limits.SharedMemory / Block, "shared memory");
  }
  Result.BlocksPerSM = uint32_t(Best);
  Result.WarpsPerSM = uint32_t(Best * WarpsPerBlock);
  Result.MaxWarps = Limits.MaxWarps;
  return Result;
}

/// "40 registers, 7188+0 bytes of shared memory, 136 bytes of stack per
/// thread; occupancy 50% (32 of 64 warps per SM, limited by registers)":
/// what follows the grid on the launch line. Unknown figures are left out.
inline std::string describeResources(const KernelResources &Resources,
                                     uint64_t DynamicShared,
                                     const Occupancy &Occ) {
  std::string Text;
  if (Resources.HasRegisters)
    Text += std::to_string(Resources.Registers) + " registers, ";
  Text += std::to_string(Resources.StaticShared) + "+" +
          std::to_string(DynamicShared) + " bytes of shared memory";
  if (Resources.HasStack)
    Text += ", " + std::to_string(Resources.StackBytes) +
            " bytes of stack per thread";
  if (Occ.LimitedBy && Occ.MaxWarps)
    Text += "; occupancy " +
            std::to_string(uint64_t(Occ.WarpsPerSM) * 100 / Occ.MaxWarps) +
            "% (" + std::to_string(Occ.WarpsPerSM) + " of " +
            std::to_string(Occ.MaxWarps) + " warps per SM, limited by " +
            Occ.LimitedBy + ")";
  return Text;
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_KERNELRESOURCES_H
