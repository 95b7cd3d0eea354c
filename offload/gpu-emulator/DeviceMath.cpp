//===- DeviceMath.cpp - GPU arithmetic the host has no instruction for ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The __gpuemu_rounded_* functions: PTX arithmetic and conversions with a
// rounding mode other than to-nearest (libdevice's __nv_fadd_rz,
// __nv_double2float_rd, ...). A GPU names the mode in each instruction; the
// host has one mode per thread, so it is set around the operation and put
// back. This file is compiled with -frounding-math, so that the compiler
// neither folds nor moves the arithmetic across the mode changes.
//
// And __gpuemu_trig_preop, amdgcn's v_trig_preop_f64, which ocml's sin and
// cos use to reduce large arguments.
//
//===----------------------------------------------------------------------===//

#include "offload/GPUEmulation/EmulatorABI.h"

#include <cfenv>
#include <cmath>
#include <cstring>

using offload::gpuemu::ConvertFrom;
using offload::gpuemu::RoundedOp;
using offload::gpuemu::RoundingMode;

namespace {

int hostMode(uint32_t Mode) {
  switch (RoundingMode(Mode)) {
  case RoundingMode::TowardZero:
    return FE_TOWARDZERO;
  case RoundingMode::Down:
    return FE_DOWNWARD;
  case RoundingMode::Up:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

/// Sets the host's rounding mode for its lifetime; GPU threads run on host
/// threads between switches, so the mode must not outlive one operation.
class ScopedRounding {
public:
  explicit ScopedRounding(uint32_t Mode) : Saved(std::fegetround()) {
    std::fesetround(hostMode(Mode));
  }
  ~ScopedRounding() { std::fesetround(Saved); }

private:
  int Saved;
};

template <typename T> T rounded(uint32_t Op, uint32_t Mode, T A, T B, T C) {
  ScopedRounding Rounding(Mode);
  // volatile: the result must be computed here, under the mode just set.
  volatile T Result;
  switch (RoundedOp(Op)) {
  case RoundedOp::Add:
    Result = A + B;
    break;
  case RoundedOp::Mul:
    Result = A * B;
    break;
  case RoundedOp::Div:
    Result = A / B;
    break;
  case RoundedOp::Fma:
    Result = std::fma(A, B, C);
    break;
  case RoundedOp::Sqrt:
    Result = std::sqrt(A);
    break;
  default:
    Result = T(1) / A;
    break;
  }
  return Result;
}

template <typename T>
T roundedFrom(uint32_t From, uint32_t Mode, uint64_t Bits) {
  ScopedRounding Rounding(Mode);
  volatile T Result;
  switch (ConvertFrom(From)) {
  case ConvertFrom::Signed:
    Result = T(int64_t(Bits));
    break;
  case ConvertFrom::Unsigned:
    Result = T(Bits);
    break;
  default: {
    double D;
    std::memcpy(&D, &Bits, sizeof(D));
    Result = T(D);
    break;
  }
  }
  return Result;
}

/// The first 1280 fraction bits of 2/pi, most significant first (the
/// instruction reads 1201 of them).
constexpr uint64_t TwoOverPi[20] = {
    0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041,
    0xfe5163abdebbc561, 0xb7246e3a424dd2e0, 0x06492eea09d1921c,
    0xfe1deb1cb129a73e, 0xe88235f52ebb4484, 0xe99c7026b45f7e41,
    0x3991d639835339f4, 0x9c845f8bbdf9283b, 0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b, 0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08,
    0x56033046fc7b6bab, 0xf0cfbc209af4361d};

/// Fraction bit \p I of 2/pi, counted from the first (I = 0: 2^-1); 0 past
/// the table, as past the instruction's 1201 bits.
uint64_t twoOverPiBit(int I) {
  if (I < 0 || I >= 1201)
    return 0;
  return (TwoOverPi[I / 64] >> (63 - I % 64)) & 1;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) float
__gpuemu_rounded_f32(uint32_t Op, uint32_t Mode, float A, float B, float C) {
  return rounded<float>(Op, Mode, A, B, C);
}

__attribute__((visibility("default"))) double
__gpuemu_rounded_f64(uint32_t Op, uint32_t Mode, double A, double B, double C) {
  return rounded<double>(Op, Mode, A, B, C);
}

__attribute__((visibility("default"))) float
__gpuemu_rounded_to_f32(uint32_t From, uint32_t Mode, uint64_t Bits) {
  return roundedFrom<float>(From, Mode, Bits);
}

__attribute__((visibility("default"))) double
__gpuemu_rounded_to_f64(uint32_t From, uint32_t Mode, uint64_t Bits) {
  return roundedFrom<double>(From, Mode, Bits);
}

__attribute__((visibility("default"))) double
__gpuemu_trig_preop(double X, uint32_t Segment) {
  // The instruction's definition: skip 53 bits of 2/pi per segment, and
  // for a large X as many more as its exponent exceeds 1077, so that the
  // product with X keeps the bits that matter modulo 4; the 53 bits there
  // are the result, scaled to their place in 2/pi.
  uint64_t Bits;
  std::memcpy(&Bits, &X, sizeof(Bits));
  int Exponent = int((Bits >> 52) & 0x7ff);
  int Shift = int(Segment & 31) * 53;
  if (Exponent > 1077)
    Shift += Exponent - 1077;
  uint64_t Chunk = 0;
  for (int I = 0; I < 53; ++I)
    Chunk = (Chunk << 1) | twoOverPiBit(Shift + I);
  int Scale = -53 - Shift;
  // Keeps the result of the largest arguments from underflowing; ocml
  // scales the product back.
  if (Exponent >= 1968)
    Scale += 128;
  return std::ldexp(double(Chunk), Scale);
}

} // extern "C"
