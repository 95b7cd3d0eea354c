// An OMPT tool printing the kind of each target construct's begin and where
// its code pointer is: `caller` outside libomptarget, `runtime` inside it
// (a return address into the runtime's own entry points), `null`.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <stdio.h>
#include <string.h>

static const char *kinds[] = {"?",
                              "target",
                              "enter_data",
                              "exit_data",
                              "update",
                              "?",
                              "?",
                              "?",
                              "?",
                              "target_nowait",
                              "enter_data_nowait",
                              "exit_data_nowait",
                              "update_nowait"};

static const char *where(const void *codeptr) {
  Dl_info info;
  if (!codeptr)
    return "null";
  if (dladdr(codeptr, &info) && info.dli_fname &&
      strstr(info.dli_fname, "libomptarget"))
    return "runtime";
  return "caller";
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep,
                          int device_num, ompt_data_t *task_data,
                          ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra) {
  if (ep != ompt_scope_begin)
    return;
  printf("target: %s begin dev %d codeptr=%s\n",
         kind > 0 && kind <= 12 ? kinds[kind] : "?", device_num,
         where(codeptr_ra));
  fflush(stdout);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  ompt_set_callback_t set_callback =
      (ompt_set_callback_t)lookup("ompt_set_callback");
  set_callback(ompt_callback_target_emi, (ompt_callback_t)on_target_emi);
  return 1;
}

static void finalize(ompt_data_t *tool_data) {}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
