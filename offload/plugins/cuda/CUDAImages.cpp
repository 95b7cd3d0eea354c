//===- CUDAImages.cpp - A CUDA device's images and symbols ----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Loading images, finding kernels and globals, and what each image gets:
// its device environment and the host service.
//
//===----------------------------------------------------------------------===//

#include "CUDADevice.h"

using namespace offload::plugin;
using namespace offload::plugin::cuda;

Status CUDADevice::loadDeviceImage(const DeviceImageRef &Image,
                                   LoadedImage *&Out) {
  if (Status S = makeCurrent())
    return S;
  auto Loaded = std::make_unique<CUDAImage>();
  Loaded->Description = Image.Description;
  if (CUresult R = API.cuModuleLoadDataEx(&Loaded->Module, Image.Start, 0,
                                          nullptr, nullptr))
    return Status::error("%s cannot load %s: cuModuleLoadDataEx failed: "
                         "%s%s",
                         deviceText().c_str(), Image.Description,
                         Driver.describe(R).c_str(),
                         R == CUDA_ERROR_NO_BINARY_FOR_GPU
                             ? "; rebuild with --offload-arch for this device"
                             : "");
  Status S = writeDeviceEnvironment(*Loaded);
  if (!S)
    S = attachHostService(*Loaded);
  if (S) {
    if (CUresult R = API.cuModuleUnload(Loaded->Module))
      return Status::error("%s (and cuModuleUnload failed too: %s)",
                           S.message().c_str(), Driver.describe(R).c_str());
    return S;
  }
  Out = Loaded.release();
  return Status::ok();
}

Status CUDADevice::unloadDeviceImage(LoadedImage *Image) {
  auto *Loaded = static_cast<CUDAImage *>(Image);
  if (Status S = makeCurrent())
    return S;
  CUresult R = API.cuModuleUnload(Loaded->Module);
  std::string Description = Loaded->Description;
  delete Loaded;
  return R ? failure("cuModuleUnload", R, "for " + Description) : Status::ok();
}

Status CUDADevice::getKernel(LoadedImage *Image, const char *KernelName,
                             KernelHandle &Out) {
  auto *Loaded = static_cast<CUDAImage *>(Image);
  if (Status S = makeCurrent())
    return S;
  auto Kernel = std::make_unique<CUDAKernel>();
  Kernel->Name = KernelName;
  if (CUresult R = API.cuModuleGetFunction(&Kernel->Function, Loaded->Module,
                                           KernelName))
    return Status::error("%s: kernel '%s' not found in %s: "
                         "cuModuleGetFunction failed: %s",
                         deviceText().c_str(), KernelName,
                         Loaded->Description.c_str(),
                         Driver.describe(R).c_str());
  // The kernel environment says how the compiler expects it to run; an
  // image without one (not OpenMP) is launched with the defaults.
  std::string EnvName = std::string(KernelName) + "_kernel_environment";
  CUdeviceptr EnvAddress = 0;
  size_t EnvSize = 0;
  CUresult Found = API.cuModuleGetGlobal(&EnvAddress, &EnvSize, Loaded->Module,
                                         EnvName.c_str());
  if (Found != CUDA_SUCCESS && Found != CUDA_ERROR_NOT_FOUND)
    return failure("cuModuleGetGlobal", Found, "looking up '" + EnvName + "'");
  if (Found == CUDA_SUCCESS && EnvSize >= sizeof(KernelEnvironmentLayout)) {
    KernelEnvironmentLayout Env;
    std::string What =
        "reading the kernel environment of kernel '" + Kernel->Name + "'";
    if (Status S = onStream(nullptr, "cuMemcpyDtoHAsync", What.c_str(),
                            [&](CUstream Stream) {
                              return API.cuMemcpyDtoHAsync(&Env, EnvAddress,
                                                           sizeof(Env), Stream);
                            }))
      return S;
    Kernel->Config = Env.Configuration;
  }
  if (Status S = readKernelAttributes(*Kernel))
    return S;
  // The handle is the kernel's generic part (GPUDevice::kernelOf).
  Out = static_cast<GPUKernel *>(Kernel.get());
  Kernels.lock()->push_back(std::move(Kernel));
  return Status::ok();
}

Status CUDADevice::getGlobal(LoadedImage *Image, const char *GlobalName,
                             uint64_t Size, void *&DeviceAddress) {
  auto *Loaded = static_cast<CUDAImage *>(Image);
  if (Status S = makeCurrent())
    return S;
  CUdeviceptr Address = 0;
  size_t Bytes = 0;
  if (CUresult R =
          API.cuModuleGetGlobal(&Address, &Bytes, Loaded->Module, GlobalName))
    return Status::error("%s: global '%s' not found in %s: "
                         "cuModuleGetGlobal failed: %s",
                         deviceText().c_str(), GlobalName,
                         Loaded->Description.c_str(),
                         Driver.describe(R).c_str());
  if (Size && Bytes != Size)
    return Status::error("global '%s' in %s has %zu bytes on the device "
                         "but %llu on the host",
                         GlobalName, Loaded->Description.c_str(), Bytes,
                         static_cast<unsigned long long>(Size));
  DeviceAddress = reinterpret_cast<void *>(Address);
  return Status::ok();
}

Status CUDADevice::writeDeviceEnvironment(CUDAImage &Image) {
  CUdeviceptr Address = 0;
  size_t Bytes = 0;
  CUresult Found = API.cuModuleGetGlobal(&Address, &Bytes, Image.Module,
                                         DeviceEnvironmentSymbol);
  // Not linked with our device runtime: nothing to fill in.
  if (Found == CUDA_ERROR_NOT_FOUND ||
      (Found == CUDA_SUCCESS && Bytes != sizeof(DeviceEnvironmentLayout)))
    return Status::ok();
  std::string What = std::string("writing ") + DeviceEnvironmentSymbol +
                     " of " + Image.Description;
  if (Found != CUDA_SUCCESS)
    return failure("cuModuleGetGlobal", Found, What);
  DeviceEnvironmentLayout Env{};
  // The program's numbering, for omp_get_device_num/omp_get_num_devices
  // (upstream writes the plugin's own, wrong beside another plugin).
  Env.NumDevices = uint32_t(NumGlobalDevices);
  Env.DeviceNum = uint32_t(GlobalId);
  Env.ClockFrequency = uint64_t(ClockKHz) * 1000;
  Env.HardwareParallelism = uint64_t(Multiprocessors);
  Env.DeviceDebugKind = deviceRuntimeDebugKind();
  Env.DynamicMemSize = Knobs.SharedMemoryBytes;
  return onStream(
      nullptr, "cuMemcpyHtoDAsync", What.c_str(), [&](CUstream Stream) {
        return API.cuMemcpyHtoDAsync(Address, &Env, sizeof(Env), Stream);
      });
}

Status CUDADevice::attachHostService(CUDAImage &Image) {
  CUdeviceptr Address = 0;
  size_t Bytes = 0;
  CUresult Found = API.cuModuleGetGlobal(&Address, &Bytes, Image.Module,
                                         OMPX_HOST_SERVICE_SYMBOL);
  if (Found == CUDA_ERROR_NOT_FOUND ||
      (Found == CUDA_SUCCESS && Bytes != sizeof(void *)))
    return Status::ok();
  std::string What =
      "writing " OMPX_HOST_SERVICE_SYMBOL " of " + Image.Description;
  if (Found != CUDA_SUCCESS)
    return failure("cuModuleGetGlobal", Found, What);
  void *Ring = nullptr;
  if (Status S = HostService.ring(
          deviceText(),
          [&](size_t Size, Status &Error) -> void * {
            void *Ptr = nullptr;
            if (CUresult R = API.cuMemAllocHost(&Ptr, Size))
              Error = failure("cuMemAllocHost", R);
            return Ptr;
          },
          Ring))
    return S;
  return onStream(
      nullptr, "cuMemcpyHtoDAsync", What.c_str(), [&](CUstream Stream) {
        return API.cuMemcpyHtoDAsync(Address, &Ring, sizeof(Ring), Stream);
      });
}

Status CUDADevice::readKernelAttributes(CUDAKernel &Kernel) {
  int MaxThreads = 0;
  if (CUresult R = API.cuFuncGetAttribute(
          &MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
          Kernel.Function))
    return failure("cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)", R,
                   "for kernel '" + Kernel.Name + "'");
  Kernel.MaxThreads = MaxThreads > 0 ? uint32_t(MaxThreads) : 0;
  // The other figures are optional: a driver that does not give one leaves
  // it unknown (and a launch's shared memory to its own check).
  auto Ask = [&](int Attribute, int &Value) {
    return API.cuFuncGetAttribute(&Value, Attribute, Kernel.Function) ==
               CUDA_SUCCESS &&
           Value >= 0;
  };
  int Value = 0;
  if (Ask(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, Value))
    Kernel.StaticShared = uint32_t(Value);
  Kernel.Resources.StaticShared = Kernel.StaticShared;
  Kernel.Resources.HasRegisters = Ask(CU_FUNC_ATTRIBUTE_NUM_REGS, Value);
  if (Kernel.Resources.HasRegisters)
    Kernel.Resources.Registers = uint32_t(Value);
  Kernel.Resources.HasStack = Ask(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, Value);
  if (Kernel.Resources.HasStack)
    Kernel.Resources.StackBytes = uint32_t(Value);
  uint32_t Default = uint32_t(SharedPerBlock) -
                     std::min(Kernel.StaticShared, uint32_t(SharedPerBlock));
  *Kernel.DynamicSharedLimit.lock() =
      Ask(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, Value)
          ? uint32_t(Value)
          : Default;
  return Status::ok();
}
