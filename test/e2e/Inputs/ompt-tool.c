// An OMPT tool for the e2e tests: registers the device and target callbacks
// of OpenMP 5.1 and prints one line per event. With OMPT_TEST_TRACE=1 it
// also traces device 0 through the device tracing interface and checks the
// records it gets back. With OMPT_TEST_NOEMI=1 it registers the non-EMI
// target callbacks instead of the EMI ones; with
// OMPT_TEST_NO_DEVICE_INITIALIZE=1 it leaves out device_initialize.
#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static ompt_set_callback_t set_callback;
// Target callbacks come from every thread that runs a construct (nowait
// regions run on libomp's helper threads), so ids are taken atomically.
static uint64_t next_id = 1;
static uint64_t take_id(void) {
  return __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
}
static int tracing;

static ompt_set_trace_ompt_t set_trace_ompt;
static ompt_start_trace_t start_trace;
static ompt_flush_trace_t flush_trace;
static ompt_stop_trace_t stop_trace;
static ompt_get_record_ompt_t get_record_ompt;
static ompt_get_record_type_t get_record_type;
static ompt_advance_buffer_cursor_t advance_buffer_cursor;
static ompt_get_device_time_t get_device_time;
static ompt_translate_time_t translate_time;
static ompt_device_t *traced_device;
static ompt_device_time_t first_time, last_time;
static unsigned records, buffers;
static int decreasing;

static const char *target_kind(ompt_target_t k) {
  switch (k) {
  case ompt_target:
    return "target";
  case ompt_target_enter_data:
    return "enter_data";
  case ompt_target_exit_data:
    return "exit_data";
  case ompt_target_update:
    return "update";
  case ompt_target_nowait:
    return "target_nowait";
  case ompt_target_enter_data_nowait:
    return "enter_data_nowait";
  case ompt_target_exit_data_nowait:
    return "exit_data_nowait";
  case ompt_target_update_nowait:
    return "update_nowait";
  }
  return "?";
}

static const char *data_op(ompt_target_data_op_t op) {
  switch (op) {
  case ompt_target_data_alloc:
    return "alloc";
  case ompt_target_data_transfer_to_device:
    return "to_device";
  case ompt_target_data_transfer_from_device:
    return "from_device";
  case ompt_target_data_delete:
    return "delete";
  case ompt_target_data_associate:
    return "associate";
  case ompt_target_data_disassociate:
    return "disassociate";
  default:
    return "other";
  }
}

static const char *endpoint(ompt_scope_endpoint_t e) {
  return e == ompt_scope_begin ? "begin" : e == ompt_scope_end ? "end" : "?";
}

static double monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void on_buffer_request(int device_num, ompt_buffer_t **buffer,
                              size_t *bytes) {
  // Room for 8 records, so a run fills several buffers.
  *bytes = 8 * sizeof(ompt_record_ompt_t);
  *buffer = malloc(*bytes);
}

static void on_buffer_complete(int device_num, ompt_buffer_t *buffer,
                               size_t bytes, ompt_buffer_cursor_t begin,
                               int buffer_owned) {
  ++buffers;
  ompt_buffer_cursor_t cursor = begin;
  while (bytes) {
    if (get_record_type(buffer, cursor) != ompt_record_ompt) {
      printf("trace: record of unexpected type\n");
      break;
    }
    ompt_record_ompt_t *r = get_record_ompt(buffer, cursor);
    ++records;
    if (r->time < last_time || r->time < first_time)
      decreasing = 1;
    last_time = r->time;
    switch (r->type) {
    case ompt_callback_target:
      printf("trace: dev %d target %s %s target_id=%llu\n", device_num,
             target_kind(r->record.target.kind),
             endpoint(r->record.target.endpoint),
             (unsigned long long)r->target_id);
      break;
    case ompt_callback_target_data_op:
      printf("trace: dev %d data_op %s bytes=%zu target_id=%llu%s\n",
             device_num, data_op(r->record.target_data_op.optype),
             r->record.target_data_op.bytes, (unsigned long long)r->target_id,
             r->record.target_data_op.end_time >= r->time ? "" : " BAD-END");
      break;
    case ompt_callback_target_submit:
      printf("trace: dev %d kernel teams=%u target_id=%llu%s\n", device_num,
             r->record.target_kernel.requested_num_teams,
             (unsigned long long)r->target_id,
             r->record.target_kernel.end_time >= r->time ? "" : " BAD-END");
      break;
    default:
      printf("trace: record type %d\n", (int)r->type);
    }
    if (!advance_buffer_cursor(traced_device, buffer, bytes, cursor, &cursor))
      break;
  }
  printf("trace: buffer %u delivered (%s), %u records so far, times %s\n",
         buffers, buffer_owned ? "owned" : "not owned", records,
         decreasing ? "DECREASE" : "non-decreasing");
  if (buffer_owned)
    free(buffer);
  fflush(stdout);
}

static void on_device_initialize(int device_num, const char *type,
                                 ompt_device_t *device,
                                 ompt_function_lookup_t lookup,
                                 const char *documentation) {
  printf("device_initialize: dev %d type=%s lookup=%s\n", device_num, type,
         lookup ? "yes" : "no");
  if (!tracing || device_num != 0 || !lookup)
    return;
#define LOOKUP(name) name = (ompt_##name##_t)lookup("ompt_" #name)
  LOOKUP(set_trace_ompt);
  LOOKUP(start_trace);
  LOOKUP(flush_trace);
  LOOKUP(stop_trace);
  LOOKUP(get_record_ompt);
  LOOKUP(get_record_type);
  LOOKUP(advance_buffer_cursor);
  LOOKUP(get_device_time);
  LOOKUP(translate_time);
#undef LOOKUP
  if (!set_trace_ompt || !start_trace || !flush_trace || !stop_trace ||
      !get_record_ompt || !get_record_type || !advance_buffer_cursor ||
      !get_device_time || !translate_time) {
    printf("trace: missing entry points\n");
    return;
  }
  traced_device = device;
  first_time = get_device_time(device);
  double host = translate_time(device, first_time);
  printf("trace: device time translates to the host clock: %s\n",
         host > monotonic_seconds() - 1 && host <= monotonic_seconds() ? "yes"
                                                                       : "no");
  printf("trace: set target %d data_op %d submit %d other %d\n",
         set_trace_ompt(device, 1, ompt_callback_target_emi),
         set_trace_ompt(device, 1, ompt_callback_target_data_op_emi),
         set_trace_ompt(device, 1, ompt_callback_target_submit_emi),
         set_trace_ompt(device, 1, ompt_callback_parallel_begin));
  printf("trace: start %d\n",
         start_trace(device, on_buffer_request, on_buffer_complete));
  fflush(stdout);
}

static void on_device_finalize(int device_num) {
  printf("device_finalize: dev %d\n", device_num);
  fflush(stdout);
}

static void on_device_load(int device_num, const char *filename,
                           int64_t offset_in_file, void *vma_in_file,
                           size_t bytes, void *host_addr, void *device_addr,
                           uint64_t module_id) {
  printf("device_load: dev %d bytes>0=%d host_addr=%s\n", device_num, bytes > 0,
         host_addr ? "set" : "null");
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep,
                          int device_num, ompt_data_t *task_data,
                          ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra) {
  if (ep == ompt_scope_begin)
    target_data->value = take_id();
  printf("target: %s %s dev %d target_id=%llu codeptr=%s\n", target_kind(kind),
         endpoint(ep), device_num, (unsigned long long)target_data->value,
         codeptr_ra ? "set" : "null");
  fflush(stdout);
  if (tracing && traced_device && kind == ompt_target_update &&
      ep == ompt_scope_end)
    printf("trace: flush %d\n", flush_trace(traced_device));
}

static void on_data_op_emi(ompt_scope_endpoint_t ep,
                           ompt_data_t *target_task_data,
                           ompt_data_t *target_data, ompt_id_t *host_op_id,
                           ompt_target_data_op_t optype, void *src_addr,
                           int src_device_num, void *dest_addr,
                           int dest_device_num, size_t bytes,
                           const void *codeptr_ra) {
  if (ep == ompt_scope_begin)
    *host_op_id = take_id();
  printf("data_op: %s %s src_dev %d dest_dev %d bytes=%zu target_id=%llu "
         "op_id=%llu src=%s dest=%s code=%s\n",
         data_op(optype), endpoint(ep), src_device_num, dest_device_num, bytes,
         (unsigned long long)target_data->value,
         (unsigned long long)*host_op_id, src_addr ? "set" : "null",
         dest_addr ? "set" : "null", codeptr_ra ? "set" : "null");
}

static void on_submit_emi(ompt_scope_endpoint_t ep, ompt_data_t *target_data,
                          ompt_id_t *host_op_id,
                          unsigned int requested_num_teams) {
  if (ep == ompt_scope_begin)
    *host_op_id = take_id();
  printf("submit: %s target_id=%llu op_id=%llu teams=%u\n", endpoint(ep),
         (unsigned long long)target_data->value,
         (unsigned long long)*host_op_id, requested_num_teams);
}

static void on_target(ompt_target_t kind, ompt_scope_endpoint_t ep,
                      int device_num, ompt_data_t *task_data,
                      ompt_id_t target_id, const void *codeptr_ra) {
  printf("target(noemi): %s %s dev %d target_id=%llu\n", target_kind(kind),
         endpoint(ep), device_num, (unsigned long long)target_id);
}

static void on_data_op(ompt_id_t target_id, ompt_id_t host_op_id,
                       ompt_target_data_op_t optype, void *src_addr,
                       int src_device_num, void *dest_addr, int dest_device_num,
                       size_t bytes, const void *codeptr_ra) {
  printf("data_op(noemi): %s src_dev %d dest_dev %d bytes=%zu "
         "target_id=%llu op_id=%llu code=%s\n",
         data_op(optype), src_device_num, dest_device_num, bytes,
         (unsigned long long)target_id, (unsigned long long)host_op_id,
         codeptr_ra ? "set" : "null");
}

static void on_submit(ompt_id_t target_id, ompt_id_t host_op_id,
                      unsigned int requested_num_teams) {
  printf("submit(noemi): target_id=%llu\n", (unsigned long long)target_id);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  tracing = getenv("OMPT_TEST_TRACE") != NULL;
  int noemi = getenv("OMPT_TEST_NOEMI") != NULL;
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
#define REGISTER(event, fn) set_callback(event, (ompt_callback_t)fn)
  if (!getenv("OMPT_TEST_NO_DEVICE_INITIALIZE"))
    REGISTER(ompt_callback_device_initialize, on_device_initialize);
  REGISTER(ompt_callback_device_finalize, on_device_finalize);
  REGISTER(ompt_callback_device_load, on_device_load);
  if (noemi) {
    REGISTER(ompt_callback_target, on_target);
    REGISTER(ompt_callback_target_data_op, on_data_op);
    REGISTER(ompt_callback_target_submit, on_submit);
  } else {
    REGISTER(ompt_callback_target_emi, on_target_emi);
    REGISTER(ompt_callback_target_data_op_emi, on_data_op_emi);
    REGISTER(ompt_callback_target_submit_emi, on_submit_emi);
  }
#undef REGISTER
  printf("tool: initialized\n");
  fflush(stdout);
  return 1;
}

static void finalize(ompt_data_t *tool_data) {
  printf("tool: finalized\n");
  fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
