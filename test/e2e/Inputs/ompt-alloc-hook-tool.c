// An OMPT tool that runs the program's `alloc_hook` function (found by
// name in the executable, linked with --export-dynamic) when the runtime
// begins a device allocation of exactly `hook_bytes` bytes. It lets a test
// change the mapping table at a chosen point inside a construct, as
// another host thread could at that moment.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <stddef.h>

static void on_data_op_emi(ompt_scope_endpoint_t ep,
                           ompt_data_t *target_task_data,
                           ompt_data_t *target_data, ompt_id_t *host_op_id,
                           ompt_target_data_op_t optype, void *src_addr,
                           int src_device_num, void *dest_addr,
                           int dest_device_num, size_t bytes,
                           const void *codeptr_ra) {
  static void (*hook)(void);
  static size_t *hook_bytes;
  if (!hook) {
    hook = (void (*)(void))dlsym(RTLD_DEFAULT, "alloc_hook");
    hook_bytes = (size_t *)dlsym(RTLD_DEFAULT, "hook_bytes");
  }
  if (hook && hook_bytes && ep == ompt_scope_begin &&
      optype == ompt_target_data_alloc && bytes == *hook_bytes)
    hook();
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  ompt_set_callback_t set_callback =
      (ompt_set_callback_t)lookup("ompt_set_callback");
  set_callback(ompt_callback_target_data_op_emi,
               (ompt_callback_t)on_data_op_emi);
  return 1;
}

static void finalize(ompt_data_t *tool_data) {}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
