//===- FiberAnnotations.h - GPU threads as TSan fibers ----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ThreadSanitizer keeps a shadow call stack and a happens-before clock per
// thread. The executor runs a block's GPU threads on one host thread,
// switching stacks with fcontext (BlockState.h). Untold, TSan takes them all
// for the host thread: a GPU thread that switches away leaves its frames on
// that one shadow stack, which grows with every thread of every block until
// it overflows (a SEGV inside TSan), and its reports would mix the threads.
//
// So, only when built with TSan, every GPU thread's stack has a TSan fiber
// (ThreadStacks), the scheduler runs as the host thread's own fiber, and
// every jump_fcontext is preceded, on the thread doing it, by a switch to the
// fiber of the context it resumes. The switch synchronises (flags 0, not
// __tsan_switch_to_fiber_no_sync): the scheduler and the block's threads take
// turns on one host thread and hand the block's state to each other at every
// switch, which is a real happens-before edge. In other builds all of this
// compiles to nothing.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_FIBERANNOTATIONS_H
#define OFFLOAD_GPU_EMULATOR_FIBERANNOTATIONS_H

#if defined(__SANITIZE_THREAD__)
#define GPUEMU_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GPUEMU_TSAN_FIBERS 1
#endif
#endif
#ifndef GPUEMU_TSAN_FIBERS
#define GPUEMU_TSAN_FIBERS 0
#endif

#if GPUEMU_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
/// Immediately before a jump_fcontext to the context running as \p Fiber.
#define GPUEMU_SWITCH_FIBER(Fiber) __tsan_switch_to_fiber((Fiber), 0)
/// For a context's entry function, which never returns: an instrumented one
/// would leave its frame on the fiber's shadow stack each time the stack is
/// reused for another block.
#define GPUEMU_NOT_INSTRUMENTED                                                \
  __attribute__((disable_sanitizer_instrumentation))
#else
#define GPUEMU_SWITCH_FIBER(Fiber) ((void)0)
#define GPUEMU_NOT_INSTRUMENTED
#endif

#endif // OFFLOAD_GPU_EMULATOR_FIBERANNOTATIONS_H
