// An HSA runtime library for tests: one CPU agent, then one GPU agent per
// name in $FAKE_HSA_GPUS ("gfx90a,gfx1100"; empty for none). Only what
// device detection calls is implemented; FakeDriverUnsupported.cpp answers
// every other entry point of the plugins' table.
#include "amdgpu/HSARuntime.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace offload::plugin::hsa;

namespace {
std::vector<std::string> configuredGPUs() {
  std::vector<std::string> Names;
  const char *List = std::getenv("FAKE_HSA_GPUS");
  std::string Text = List ? List : "";
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t Comma = Text.find(',', Start);
    if (Comma == std::string::npos)
      Comma = Text.size();
    Names.push_back(Text.substr(Start, Comma - Start));
    Start = Comma + 1;
  }
  return Names;
}
} // namespace

extern "C" __attribute__((visibility("default"))) hsa_status_t hsa_init() {
  return HSA_STATUS_SUCCESS;
}

extern "C" __attribute__((visibility("default"))) hsa_status_t hsa_shut_down() {
  return HSA_STATUS_SUCCESS;
}

// Agent handle 0 is the CPU, handle N the N-th GPU.
extern "C" __attribute__((visibility("default"))) hsa_status_t
hsa_iterate_agents(hsa_agent_callback_t Callback, void *Data) {
  size_t Count = configuredGPUs().size();
  for (uint64_t Handle = 0; Handle <= Count; ++Handle)
    if (hsa_status_t Status = Callback(hsa_agent_t{Handle}, Data))
      return Status == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : Status;
  return HSA_STATUS_SUCCESS;
}

extern "C" __attribute__((visibility("default"))) hsa_status_t
hsa_agent_get_info(hsa_agent_t Agent, int Attribute, void *Value) {
  std::vector<std::string> GPUs = configuredGPUs();
  if (Agent.handle > GPUs.size())
    return HSA_STATUS_ERROR;
  if (Attribute == HSA_AGENT_INFO_DEVICE) {
    *static_cast<int *>(Value) =
        Agent.handle == 0 ? HSA_DEVICE_TYPE_CPU : HSA_DEVICE_TYPE_GPU;
    return HSA_STATUS_SUCCESS;
  }
  if (Attribute == HSA_AGENT_INFO_NAME) {
    // The API's name field is a 64-byte array.
    char *Name = static_cast<char *>(Value);
    std::memset(Name, 0, 64);
    std::strncpy(Name,
                 Agent.handle == 0 ? "FakeCPU" : GPUs[Agent.handle - 1].c_str(),
                 63);
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR;
}
