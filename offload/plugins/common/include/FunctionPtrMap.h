/*===- FunctionPtrMap.h - The seed's indirect-call table API ------*- C -*-===*\
|*                                                                            *|
|* Part of the offload toolchain, under the Apache License v2.0 with LLVM     *|
|* Exceptions. See LICENSE.TXT for license information.                       *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The C interface the `declare target indirect` design names for plugins:
 * a table of (host address, device address) pairs of the indirect
 * functions, sorted by host address, that a plugin installs on one of its
 * devices. Every plugin library (libomptarget.rtl.{host,cuda,amdgpu}.so)
 * exports __tgt_rtl_set_function_ptr_map; libomptarget itself installs its
 * tables through the C++ plugin interface (GenericDevice::
 * setIndirectCallTable), which does the same thing per image.
 *
 * Plain C so that any caller can include it.
 */

#ifndef OFFLOAD_PLUGINS_COMMON_FUNCTIONPTRMAP_H
#define OFFLOAD_PLUGINS_COMMON_FUNCTIONPTRMAP_H

#include <stdint.h>

/* One table entry: the address of a host function (the key) and the address
 * of the device copy of the same function. This is also the layout the
 * device runtime searches (IndirectCallEntryTy in
 * offload/include/DeviceABI.h; checked in IndirectCallInstall.h). */
typedef struct __omp_offloading_fptr_map_ty {
  int64_t host_ptr;
  int64_t tgt_ptr;
} __omp_offloading_fptr_map_ty;

#ifdef __cplusplus
extern "C" {
#endif

/* Installs the \p table_size entries of \p table_host_ptr (sorted by
 * host_ptr, each host_ptr once) into every image currently loaded on the
 * plugin's device \p device_id. Device numbers are the plugin's own (0 to
 * the number of devices of this plugin - 1), not libomptarget's global
 * ones. A size of 0 removes the table. The table is copied; the caller keeps
 * ownership of \p table_host_ptr.
 *
 * Returns 0 on success. On bad input (an unknown device, a null table with
 * a non-zero size, entries out of order) or a failed installation, prints an
 * "omptarget error:" line naming the problem and returns -1. (The design
 * document declares the function void; callers written that way may ignore
 * the result.) */
__attribute__((visibility("default"))) int32_t
__tgt_rtl_set_function_ptr_map(int32_t device_id, uint64_t table_size,
                               __omp_offloading_fptr_map_ty *table_host_ptr);

typedef int32_t (*__tgt_rtl_set_function_ptr_map_fn)(
    int32_t, uint64_t, __omp_offloading_fptr_map_ty *);

#ifdef __cplusplus
}
#endif

#endif /* OFFLOAD_PLUGINS_COMMON_FUNCTIONPTRMAP_H */
