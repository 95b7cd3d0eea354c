//===- AMDGPUImages.cpp - An AMD GPU agent's code objects -----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Loading code objects, finding kernels and globals, and each image's
// device environment.
//
//===----------------------------------------------------------------------===//

#include "AMDGPUDevice.h"

using namespace offload::plugin;
using namespace offload::plugin::hsa;

Status AMDGPUDevice::loadDeviceImage(const DeviceImageRef &Image,
                                     LoadedImage *&Out) {
  auto Loaded = std::make_unique<AMDGPUImage>();
  Loaded->Description = Image.Description;
  auto Fail = [&](const char *Call, hsa_status_t S, const char *Hint) {
    return Status::error("%s cannot load %s: %s failed: %s%s",
                         deviceText().c_str(), Image.Description, Call,
                         Runtime.statusString(S).c_str(), Hint);
  };
  // The runtime does not report a kernel's largest work-group; the code
  // object's metadata does.
  std::string BadMetadata = offload::amdgpu::readKernelMetadata(
      Image.Start, Image.Size, Loaded->KernelLimits);
  if (!BadMetadata.empty())
    return Status::error("%s cannot load %s: %s", deviceText().c_str(),
                         Image.Description, BadMetadata.c_str());
  // On a failed load, the cleanup's own errors are not reported: the
  // load's error says what went wrong, and the half-built executable is
  // never used.
  if (hsa_status_t S = API.hsa_code_object_reader_create_from_memory(
          Image.Start, Image.Size, &Loaded->Reader))
    return Fail("hsa_code_object_reader_create_from_memory", S, "");
  if (hsa_status_t S = API.hsa_executable_create_alt(
          HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "",
          &Loaded->Executable)) {
    (void)API.hsa_code_object_reader_destroy(Loaded->Reader);
    return Fail("hsa_executable_create_alt", S, "");
  }
  const char *Call = "hsa_executable_load_agent_code_object";
  hsa_status_t S = API.hsa_executable_load_agent_code_object(
      Loaded->Executable, Agent, Loaded->Reader, "", nullptr);
  if (!S) {
    Call = "hsa_executable_freeze";
    S = API.hsa_executable_freeze(Loaded->Executable, "");
  }
  if (S) {
    (void)API.hsa_executable_destroy(Loaded->Executable);
    (void)API.hsa_code_object_reader_destroy(Loaded->Reader);
    return Fail(Call, S, " (is the image built for this GPU's gfx target?)");
  }
  LoadedImage *Raw = Loaded.release();
  Status St = writeDeviceEnvironment(Raw);
  if (!St)
    St = Heap.install(*this, Raw, deviceText());
  if (!St)
    St = HostService.attach(*this, Raw, deviceText());
  if (St) {
    (void)unloadDeviceImage(Raw);
    return St;
  }
  Out = Raw;
  return Status::ok();
}

Status AMDGPUDevice::unloadDeviceImage(LoadedImage *Image) {
  auto *Loaded = static_cast<AMDGPUImage *>(Image);
  std::string For = "for " + Loaded->Description;
  hsa_status_t S = API.hsa_executable_destroy(Loaded->Executable);
  hsa_status_t R = API.hsa_code_object_reader_destroy(Loaded->Reader);
  delete Loaded;
  if (S)
    return failure("hsa_executable_destroy", S, For);
  return R ? failure("hsa_code_object_reader_destroy", R, For) : Status::ok();
}

Status AMDGPUDevice::getKernel(LoadedImage *Image, const char *KernelName,
                               KernelHandle &Out) {
  auto *Loaded = static_cast<AMDGPUImage *>(Image);
  auto Kernel = std::make_unique<AMDGPUKernel>();
  Kernel->Name = KernelName;
  // Code objects v3 and later name a kernel's descriptor `<kernel>.kd`.
  std::string Descriptor = std::string(KernelName) + ".kd";
  hsa_executable_symbol_t Symbol;
  if (hsa_status_t S = API.hsa_executable_get_symbol_by_name(
          Loaded->Executable, Descriptor.c_str(), &Agent, &Symbol))
    return Status::error("%s: kernel '%s' not found in %s: "
                         "hsa_executable_get_symbol_by_name failed: %s",
                         deviceText().c_str(), KernelName,
                         Loaded->Description.c_str(),
                         Runtime.statusString(S).c_str());
  struct {
    int Attribute;
    void *Value;
    const char *Call;
  } const Queries[] = {
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &Kernel->KernelObject,
       "hsa_executable_symbol_get_info(KERNEL_OBJECT)"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
       &Kernel->KernargSize,
       "hsa_executable_symbol_get_info(KERNEL_KERNARG_SEGMENT_SIZE)"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &Kernel->GroupSize,
       "hsa_executable_symbol_get_info(KERNEL_GROUP_SEGMENT_SIZE)"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
       &Kernel->PrivateSize,
       "hsa_executable_symbol_get_info(KERNEL_PRIVATE_SEGMENT_SIZE)"},
  };
  for (const auto &Q : Queries)
    if (hsa_status_t S =
            API.hsa_executable_symbol_get_info(Symbol, Q.Attribute, Q.Value))
      return failure(Q.Call, S, "for kernel '" + Kernel->Name + "'");
  auto Limits = Loaded->KernelLimits.find(Kernel->Name);
  if (Limits != Loaded->KernelLimits.end()) {
    Kernel->MaxFlatWorkgroupSize = Limits->second.MaxFlatWorkgroupSize;
    Kernel->Metadata = Limits->second;
  }
  // The kernel environment says how the compiler expects it to run; an
  // image without one (not OpenMP) is launched with the defaults.
  void *EnvAddress = nullptr;
  std::string EnvName = std::string(KernelName) + "_kernel_environment";
  bool Absent = false;
  Status Found =
      findGlobal(Image, EnvName.c_str(), sizeof(KernelEnvironmentLayout),
                 EnvAddress, Absent);
  if (Found && !Absent)
    return Found;
  if (!Found) {
    KernelEnvironmentLayout Env;
    if (Status S = dataRetrieve(&Env, EnvAddress, sizeof(Env), nullptr))
      return S;
    Kernel->Config = Env.Configuration;
  }
  // The handle is the kernel's generic part (GPUDevice::kernelOf).
  Out = static_cast<GPUKernel *>(Kernel.get());
  Kernels.lock()->push_back(std::move(Kernel));
  return Status::ok();
}

Status AMDGPUDevice::getGlobal(LoadedImage *Image, const char *GlobalName,
                               uint64_t Size, void *&DeviceAddress) {
  bool Absent = false;
  return findGlobal(Image, GlobalName, Size, DeviceAddress, Absent);
}

Status AMDGPUDevice::findGlobal(LoadedImage *Image, const char *GlobalName,
                                uint64_t Size, void *&DeviceAddress,
                                bool &Absent) {
  auto *Loaded = static_cast<AMDGPUImage *>(Image);
  hsa_executable_symbol_t Symbol;
  if (hsa_status_t S = API.hsa_executable_get_symbol_by_name(
          Loaded->Executable, GlobalName, &Agent, &Symbol)) {
    Absent = S == HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
    return Status::error("%s: global '%s' not found in %s: "
                         "hsa_executable_get_symbol_by_name failed: %s",
                         deviceText().c_str(), GlobalName,
                         Loaded->Description.c_str(),
                         Runtime.statusString(S).c_str());
  }
  uint64_t Address = 0;
  uint32_t Bytes = 0;
  std::string For = std::string("for global '") + GlobalName + "'";
  if (hsa_status_t S = API.hsa_executable_symbol_get_info(
          Symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &Address))
    return failure("hsa_executable_symbol_get_info(VARIABLE_ADDRESS)", S, For);
  if (hsa_status_t S = API.hsa_executable_symbol_get_info(
          Symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &Bytes))
    return failure("hsa_executable_symbol_get_info(VARIABLE_SIZE)", S, For);
  if (Size && Bytes != Size) {
    Absent = true;
    return Status::error("%s: global '%s' in %s has %u bytes on the device "
                         "but %llu on the host",
                         deviceText().c_str(), GlobalName,
                         Loaded->Description.c_str(), Bytes,
                         static_cast<unsigned long long>(Size));
  }
  DeviceAddress = reinterpret_cast<void *>(Address);
  return Status::ok();
}

Status AMDGPUDevice::writeDeviceEnvironment(LoadedImage *Image) {
  void *Address = nullptr;
  bool Absent = false;
  if (Status S = findGlobal(Image, DeviceEnvironmentSymbol,
                            sizeof(DeviceEnvironmentLayout), Address, Absent))
    return Absent ? Status::ok() : S; // Absent: not our device runtime
  DeviceEnvironmentLayout Env{};
  // The program's numbering, for omp_get_device_num/omp_get_num_devices
  // (upstream writes the plugin's own, wrong beside another plugin).
  Env.NumDevices = uint32_t(NumGlobalDevices);
  Env.DeviceNum = uint32_t(GlobalId);
  Env.HardwareParallelism = ComputeUnits;
  Env.DeviceDebugKind = deviceRuntimeDebugKind();
  Env.DynamicMemSize = Knobs.SharedMemoryBytes;
  return dataSubmit(Address, &Env, sizeof(Env), nullptr);
}
