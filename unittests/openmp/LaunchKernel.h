//===- LaunchKernel.h - Launch a hand-written kernel on the CPU device ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the device runtime's unit tests share: launching a kernel written as
// a C++ callable through the CPU layer's entry point, the one the host
// plugin uses.
//
//===----------------------------------------------------------------------===//

#ifndef UNITTESTS_OPENMP_LAUNCHKERNEL_H
#define UNITTESTS_OPENMP_LAUNCHKERNEL_H

#include "CPUDeviceLaunch.h"
#include "DeviceRuntime.h"

#include "gtest/gtest.h"

extern "C" int __ompx_cpu_launch_kernel(const ompx_cpu_launch_request *,
                                        ompx_cpu_launch_result *);

namespace devicetest {

/// Launches Kernel(LaunchEnv) on every device thread of \p Teams teams of
/// \p Threads threads (0: the CPU layer chooses), and expects the launch to
/// succeed.
template <typename Fn>
ompx_cpu_launch_result launch(ompx::KernelEnvironmentTy &Env, uint32_t Teams,
                              uint32_t Threads, Fn Kernel) {
  ompx_cpu_launch_request R = {};
  R.Version = OMPX_CPU_LAUNCH_VERSION;
  R.NumTeams = Teams;
  R.ThreadLimit = Threads;
  R.KernelEnvironment = &Env;
  R.KernelName = "unit-test-kernel";
  R.Body = [](void *Ctx, void *LaunchEnv) {
    (*static_cast<Fn *>(Ctx))(
        static_cast<ompx::KernelLaunchEnvironmentTy *>(LaunchEnv));
  };
  R.Context = &Kernel;
  ompx_cpu_launch_result Result = {};
  EXPECT_EQ(__ompx_cpu_launch_kernel(&R, &Result), 0);
  return Result;
}

} // namespace devicetest

#endif // UNITTESTS_OPENMP_LAUNCHKERNEL_H
