// An OMPT tool that uses the device from its device_initialize and
// device_load callbacks: it asks for the number of devices and allocates,
// writes and frees device memory, as a tool setting up its own buffers
// would. The runtime must not hold a lock these calls wait for.
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ompt_set_callback_t set_callback;

static void use_device(const char *event, int device_num) {
  int devices = omp_get_num_devices();
  int value = 42, back = 0;
  void *p = omp_target_alloc(sizeof(int), device_num);
  int copied =
      p &&
      !omp_target_memcpy(p, &value, sizeof(int), 0, 0, device_num,
                         omp_get_initial_device()) &&
      !omp_target_memcpy(&back, p, sizeof(int), 0, 0,
                         omp_get_initial_device(), device_num);
  omp_target_free(p, device_num);
  printf("%s: dev %d num_devices>0=%d alloc=%s round_trip=%d\n", event,
         device_num, devices > 0, p ? "set" : "null", copied ? back : -1);
  fflush(stdout);
}

static void on_device_initialize(int device_num, const char *type,
                                 ompt_device_t *device,
                                 ompt_function_lookup_t lookup,
                                 const char *documentation) {
  use_device("device_initialize", device_num);
}

static void on_device_load(int device_num, const char *filename,
                           int64_t offset_in_file, void *vma_in_file,
                           size_t bytes, void *host_addr, void *device_addr,
                           uint64_t module_id) {
  use_device("device_load", device_num);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  // Without device_initialize the runtime initializes devices at first use
  // rather than at start-up, so the program's threads meet there.
  if (!getenv("OMPT_TEST_LOAD_ONLY"))
    set_callback(ompt_callback_device_initialize,
                 (ompt_callback_t)on_device_initialize);
  set_callback(ompt_callback_device_load, (ompt_callback_t)on_device_load);
  return 1;
}

static void finalize(ompt_data_t *tool_data) {}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
