//===- FuzzCheck.h - Property checks inside the fuzz harnesses -*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// AddressSanitizer finds reads out of bounds; these checks find readers that
// stay in bounds but answer wrongly (a view that points outside the input, an
// error without a message). A failed check aborts, which libFuzzer reports
// as a crash and saves the input for.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_FUZZ_FUZZCHECK_H
#define OFFLOAD_FUZZ_FUZZCHECK_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace offload_fuzz {

[[noreturn]] inline void fail(const char *File, int Line, const char *What) {
  std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", File, Line, What);
  std::abort();
}

/// True when \p Part lies inside \p Whole (empty views anywhere are fine:
/// nothing is read through them).
inline bool within(std::string_view Part, std::string_view Whole) {
  if (Part.empty())
    return true;
  return Part.data() >= Whole.data() &&
         Part.data() + Part.size() <= Whole.data() + Whole.size();
}

/// Reads every byte of \p Bytes, so that a view reaching past its buffer is
/// caught by AddressSanitizer where it was made, not much later.
inline unsigned touch(std::string_view Bytes) {
  unsigned Sum = 0;
  for (char C : Bytes)
    Sum += static_cast<unsigned char>(C);
  return Sum;
}

/// Keeps \p Value alive so the compiler cannot drop the reads producing it.
inline void keep(unsigned Value) {
  asm volatile("" : : "r"(Value) : "memory");
}

} // namespace offload_fuzz

#define FUZZ_CHECK(Cond, What)                                                 \
  do {                                                                         \
    if (!(Cond))                                                               \
      ::offload_fuzz::fail(__FILE__, __LINE__, What);                          \
  } while (false)

#endif // OFFLOAD_FUZZ_FUZZCHECK_H
