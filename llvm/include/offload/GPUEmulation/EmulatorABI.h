//===- EmulatorABI.h - Interface of emulated GPU images ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The contract between a GPU image retargeted to the host (the pass in
// llvm/lib/GPUEmulation) and the executor that runs it (offload/
// gpu-emulator). The retargeted image is a host shared object; it calls the
// executor's __gpuemu_* functions in place of GPU instructions and exports
// the symbols below. This header has no LLVM dependency: the executor, which
// must not load libLLVM, includes it too.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPUEMULATION_EMULATORABI_H
#define OFFLOAD_GPUEMULATION_EMULATORABI_H

#include <cstdint>

namespace offload {
namespace gpuemu {

/// Bumped whenever a function or symbol below changes meaning.
constexpr uint32_t ABIVersion = 1;

/// Exported by every image: uint32_t, equal to ABIVersion.
constexpr const char *ABIVersionSymbol = "__gpuemu_abi_version";
/// Exported by every image: uint64_t, bytes of static team-shared memory;
/// dynamic shared memory starts at this offset of the block's segment.
constexpr const char *SharedSizeSymbol = "__gpuemu_shared_size";
/// Each kernel K is also exported as `void <prefix>K(void **Params)`, which
/// loads K's arguments from Params (as cuLaunchKernel's kernelParams) and
/// calls K.
constexpr const char *EntryPrefix = "__gpuemu_entry_";
/// And `uint64_t <prefix>K[]`: the number of K's parameters, then the size
/// of each, so that a launch can copy the argument values it is given (a
/// launch runs later, on the stream's thread).
constexpr const char *ParamsPrefix = "__gpuemu_params_";
/// nvptx64 images, kernels compiled with a bound on their block size
/// (`nvvm.maxntid`, PTX `.maxntid`; clang sets it from thread_limit, 128 by
/// default): `uint32_t <prefix>K`, the most threads a block of K may have.
/// The CUDA driver reports it as CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
/// and refuses larger launches; code compiled for K (and link-time
/// OpenMPOpt, which folds the block size to it) relies on the bound.
/// Absent: the device's limit applies.
constexpr const char *MaxThreadsPrefix = "__gpuemu_max_threads_";
/// `uint64_t <prefix>K`: the bytes of static shared memory (LDS) kernel K
/// uses, counted as a GPU's link counts them (the shared variables K can
/// reach), which the drivers check a launch's static plus dynamic shared
/// memory against the per-block limit with. The segment a block gets is
/// still SharedSizeSymbol's size, every shared variable of the image.
constexpr const char *KernelSharedSizePrefix = "__gpuemu_shared_size_";

/// Defined by the executor: uint32_t, nonzero under GPUEMU_SCHEDULE=random.
/// Every image function that accesses memory other threads can see reads it
/// on entry and, when set, runs its copy that calls SchedulePointFunction
/// before each such access (a point where the schedule may switch threads).
constexpr const char *SchedulePointsFlag = "__gpuemu_schedule_points";
constexpr const char *SchedulePointFunction = "__gpuemu_schedule_point";

/// amdgcn images only. Each kernel K also exports its kernel descriptor
/// `K.kd` (the name HSA looks kernels up by): 64 bytes whose first three
/// uint32_t are, as in an AMDGPU code object, the static group (LDS)
/// segment size, the private segment size and the kernarg segment size.
/// Its __gpuemu_entry_K takes `void *Params[2]`: the kernarg segment (the
/// explicit arguments at their natural alignment, then the implicit ones at
/// the next multiple of 8) and the AQL dispatch packet.
constexpr const char *KernelDescriptorSuffix = ".kd";
constexpr uint32_t KernelDescriptorBytes = 64;
constexpr uint32_t ImplicitArgumentBytes = 256;
/// amdgcn images also carry, as a code object does, the AMDHSA metadata
/// note (section AMDGPUMetadataSection, ELF note "AMDGPU" of type 32,
/// NT_AMDGPU_METADATA: a MessagePack map whose "amdhsa.kernels" entries
/// give each kernel's .name, .symbol, .max_flat_workgroup_size, from its
/// "amdgpu-flat-work-group-size" attribute, 1024 without one, and
/// .wavefront_size), which the AMDGPU plugin reads as on a GPU; and the
/// same bound as `uint32_t __gpuemu_max_threads_K` (MaxThreadsPrefix), by
/// which the emulated HSA queue refuses a larger work-group.
constexpr const char *AMDGPUMetadataSection = ".note.amdgpu.metadata";

/// Exported by every image: uint32_t, 0 unless the loader turns checks on
/// (GPUEMU_CHECK); the image calls __gpuemu_check_access before each device
/// memory access only while it is non-zero (AccessChecks.cpp).
constexpr const char *CheckFlagsSymbol = "__gpuemu_check_flags";

/// The kind of access __gpuemu_check_access is told about: bits, and the
/// base-2 logarithm of the alignment the access was compiled with in bits
/// AccessAlignShift and up (0 there: none known, a memcpy's).
enum AccessKind : uint32_t {
  AccessStore = 1,
  /// An atomic or volatile access: it synchronises, and never races.
  AccessAtomic = 2,
  /// Through a team-shared (address space 3) pointer.
  AccessShared = 4,
  /// The source of a copy: read, but not checked for initialisation.
  AccessNoInitCheck = 8,
  /// A fence: no memory is accessed.
  AccessFence = 16,
  /// A store whose value (up to 8 bytes) __gpuemu_check_access is given.
  AccessHasValue = 32,
};
constexpr uint32_t AccessAlignShift = 8;

/// Where in the source an access is (from debug information; Line 0 and
/// an empty File without it), as the image gives it to
/// __gpuemu_check_access.
struct CheckSite {
  uint32_t Line, Column;
  const char *File, *Function;
  /// The team-shared variable the access must stay inside ("" if none).
  const char *Object;
};

/// Special registers read through __gpuemu_sreg.
enum class SReg : uint32_t {
  TidX,
  TidY,
  TidZ,
  NTidX,
  NTidY,
  NTidZ,
  CtaIdX,
  CtaIdY,
  CtaIdZ,
  NCtaIdX,
  NCtaIdY,
  NCtaIdZ,
  LaneId,
  WarpId,
  NWarpId,
  SmId,
  NSmId,
  WarpSize,
  GlobalTimer,
  Clock,
  Clock64,
  DynamicSharedSize,
  LaneMaskEq,
  LaneMaskLt,
  LaneMaskLe,
  LaneMaskGt,
  LaneMaskGe,
};

/// Kinds of warp shuffle (__gpuemu_shfl).
enum class ShuffleKind : uint32_t { Up, Down, Butterfly, Index };

/// Kinds of warp vote (__gpuemu_vote).
enum class VoteKind : uint32_t { All, Any, Uniform, Ballot };

/// The rounding modes of PTX arithmetic and conversions (.rn, .rz, .rm,
/// .rp). The host rounds each instruction to nearest; the others need the
/// host's rounding mode changed around the operation, which the executor's
/// __gpuemu_rounded_* functions do.
enum class RoundingMode : uint32_t { NearestEven, TowardZero, Down, Up };

/// Operations of __gpuemu_rounded_f32/f64 (unused operands are 0).
enum class RoundedOp : uint32_t { Add, Mul, Div, Fma, Sqrt, Rcp };

/// Sources of __gpuemu_rounded_to_f32/f64: a signed or unsigned 64-bit
/// integer, or (to f32 only) the bits of a double.
enum class ConvertFrom : uint32_t { Signed, Unsigned, Double };

} // namespace gpuemu
} // namespace offload

// The executor's entry points, as the retargeted image calls them. Masks are
// warp lane masks (bit L for lane L).
extern "C" {
uint64_t __gpuemu_sreg(uint32_t Reg);
/// Block barrier \p Id over \p Count threads (0: every thread of the block
/// that has not exited).
void __gpuemu_barrier(uint32_t Id, uint32_t Count);
/// Returns the shuffled 32-bit value in bits 0..31 and the PTX predicate
/// (source lane in range) in bit 32. \p B and \p C are the PTX operands
/// (lane or delta, clamp/segment mask).
uint64_t __gpuemu_shfl(uint32_t Kind, uint32_t Mask, uint32_t Value, uint32_t B,
                       uint32_t C);
uint32_t __gpuemu_vote(uint32_t Kind, uint32_t Mask, uint32_t Predicate);
uint32_t __gpuemu_activemask();
void __gpuemu_syncwarp(uint32_t Mask);
/// Wavefront operations (amdgcn): like activemask, the lanes that reach
/// them together take part (the wavefront's EXEC mask).
uint64_t __gpuemu_activemask64();
uint64_t __gpuemu_wave_ballot(uint32_t Predicate);
/// \p Value of lane \p SourceLane (modulo the wavefront size; ~0u: the
/// first lane taking part), as ds_bpermute and readlane read it.
uint32_t __gpuemu_wave_permute(uint32_t SourceLane, uint32_t Value);
/// Lets the other threads of the block run (nanosleep, spin-waits).
void __gpuemu_yield();
/// May let another thread of the block run (random schedule only).
void __gpuemu_schedule_point();
[[noreturn]] void __gpuemu_trap();
/// The calling thread's block's team-shared segment.
void *__gpuemu_shared_base();
int __gpuemu_vprintf(const char *Format, void *Arguments);
void *__gpuemu_malloc(uint64_t Size);
void __gpuemu_free(void *Ptr);
/// \p Op (RoundedOp) of \p A, \p B, \p C rounded in \p Mode
/// (RoundingMode), as PTX's add.rz.f32 and the like.
float __gpuemu_rounded_f32(uint32_t Op, uint32_t Mode, float A, float B,
                           float C);
double __gpuemu_rounded_f64(uint32_t Op, uint32_t Mode, double A, double B,
                            double C);
/// \p Bits (ConvertFrom \p From) converted in \p Mode, as cvt.rz.f32.s64.
float __gpuemu_rounded_to_f32(uint32_t From, uint32_t Mode, uint64_t Bits);
double __gpuemu_rounded_to_f64(uint32_t From, uint32_t Mode, uint64_t Bits);
/// amdgcn's v_trig_preop_f64: 53 bits of 2/pi chosen by \p Segment and the
/// exponent of \p X, scaled (the argument reduction of ocml's sin and cos).
double __gpuemu_trig_preop(double X, uint32_t Segment);
/// Checks an access of \p Bytes at \p Address (AccessKind \p Kind) at
/// \p Site (a CheckSite) against the checks GPUEMU_CHECK selected; a
/// failed check reports and ends the launch. \p Stored: the value a store
/// writes, when Kind has AccessHasValue. \p Object, \p ObjectBytes: the
/// team-shared variable the access must stay inside (null, 0: none known).
void __gpuemu_check_access(const void *Address, uint64_t Bytes, uint32_t Kind,
                           const void *Site, uint64_t Stored,
                           const void *Object, uint64_t ObjectBytes);
[[noreturn]] void __gpuemu_assertfail(const char *Message, const char *File,
                                      uint32_t Line, const char *Function,
                                      uint64_t CharSize);
}

#endif // OFFLOAD_GPUEMULATION_EMULATORABI_H
