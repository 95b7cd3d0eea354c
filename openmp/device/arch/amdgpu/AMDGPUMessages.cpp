//===- AMDGPUMessages.cpp - Fatal errors and assertions on AMD GPUs -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// AMD GPUs have no driver printf: the runtime's fatal errors and failed
// assertions go to the host's stderr as fprintf requests of the
// host-service channel (gpu/HostStdio.cpp), in the words NVIDIA's vprintf
// prints them with.
//
//===----------------------------------------------------------------------===//

#include "GPUPrimitives.h"

extern "C" int fprintf(void *File, const char *Format, ...);
extern "C" void *stderr;

void ompx::gpu::printFatal(const char *Message) {
  fprintf(stderr, "ompdevice: fatal error (amdgpu, block %u thread %u): %s\n",
          blockId(), threadId(), Message);
}

void ompx::gpu::assertFail(const char *Expression, const char *File,
                           unsigned Line, const char *Function) {
  fprintf(stderr,
          "%s:%u: %s: block [%u,%u,%u], thread [%u,%u,%u]: device assertion "
          "`%s` failed.\n",
          File, Line, Function, blockId(0), blockId(1), blockId(2), threadId(0),
          threadId(1), threadId(2), Expression);
}
