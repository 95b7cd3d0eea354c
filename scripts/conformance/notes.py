"""Causes found by hand, read by run-vv.py and run-upstream-lit.py.

Each entry maps a test to (cause, one-line reason). The cause is one of
the keys of common.CAUSES:

  frontend    clang-22/flang-22 rejects the program (the same error upstream)
  miscompile  clang-22/flang-22 generates wrong code (give the evidence)
  libomp      a limit of the host OpenMP runtime (libomp)
  test        the test itself is wrong or depends on the machine
  ours        a bug or gap in this project (wrapper, libomptarget, plugin,
              device runtime)

Tests not listed here are classified automatically (see docs/Conformance.md).
Keys: VV tests as "<version>/<area>/<file>", upstream lit tests as the path
under offload/test/ ("mapping/lambda_by_value.cpp").
"""

VV_NOTES = {
    '4.5/target_teams_distribute_parallel_for/test_target_teams_distribute_parallel_for_defaultmap.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime'),
    '4.5/target_teams_distribute_parallel_for/test_target_teams_distribute_parallel_for_if_no_modifier.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime (libomp assertion nteams == t_nproc, kmp_sched.cpp:547)'),
    '4.5/target_teams_distribute_parallel_for/test_target_teams_distribute_parallel_for_if_parallel_modifier.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime (libomp assertion nteams == t_nproc, kmp_sched.cpp:547)'),
    '5.0/loop/test_loop_collapse.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime (SIGSEGV)'),
    '5.0/loop/test_loop_collapse_device.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime (SIGSEGV)'),
    '5.0/parallel_for/test_parallel_for_allocate.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '5.0/requires/test_requires_dynamic_allocators.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '5.0/target_update/test_target_update_mapper_from_discontiguous.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime'),
    '5.0/target_update/test_target_update_mapper_to_discontiguous.F90': (
        'miscompile',
        'flang-22: the host-only build (flang-22 -fopenmp, no offload target) fails the same way, so the code flang-22 generates is at fault, not the offload runtime'),
    '5.0/target_update/test_target_update_mapper_to_discontiguous.c': (
        'miscompile',
        "clang-22: 'target update' through a mapper on a discontiguous section; both runtimes fail (upstream SIGSEGV, here wrong values)"),
    '5.1/allocate/test_omp_aligned_alloc_host.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '5.1/allocate/test_omp_alloctrait_key.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '5.1/allocate/test_omp_target_aligned_alloc_device.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '5.1/metadirective/test_metadirective_nothing.c': (
        'miscompile',
        "clang-22: the metadirective's target variant is not generated correctly; both runtimes fail the same way (SIGSEGV)"),
    '5.1/metadirective/test_metadirective_target_device_kind.c': (
        'miscompile',
        "clang-22: the metadirective's target variant is not generated correctly; both runtimes fail the same way"),
    '5.1/metadirective/test_metadirective_target_device_kind_any.c': (
        'miscompile',
        "clang-22: the metadirective's target variant is not generated correctly; both runtimes fail the same way"),
    '5.1/metadirective/test_metadirective_target_device_num.c': (
        'miscompile',
        "clang-22: the metadirective's target variant is not generated correctly; both runtimes fail the same way"),
    '5.1/runtime_calls/test_teams_region_routines.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with N threads, using 2 instead' on this 2-CPU machine; the test counts threads; identical on both runtimes"),
    '5.1/teams/test_teams_set_num_teams.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with N threads, using 2 instead' on this 2-CPU machine; the test counts threads; identical on both runtimes"),
    '5.2/declare_mapper/test_declare_mapper_iterator.c': (
        'frontend',
        "clang-22 leaves the iterator variable 'it' of a mapper undefined: link error 'undefined reference to it' on both sides"),
    '5.2/metadirective/test_metadirective_otherwise.c': (
        'miscompile',
        'clang-22 references a kernel (__omp_offloading_..._test_otherwise_l33) that it does not emit into the device image; both runtimes fail to load it'),
    '5.2/unified_shared_mem/test_target_VirDestr.cpp': (
        'frontend',
        "clang-22 does not define the static member base::StatVar used in the declare-target class: upstream's host link fails, ours fails to load the device image (undefined symbol _ZN4base7StatVarE)"),
    '5.2/unified_shared_mem/test_target_struct_obj_access.cpp': (
        'ours',
        'requires unified_shared_memory with declare-target struct objects: SIGSEGV here, upstream passes'),
    '6.0/allocate/test_pin_device.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '6.0/allocate/test_preferred_device.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '6.0/groupprivate/test_teams_groupprivate_devicetype_host.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with N threads, using 2 instead' on this 2-CPU machine; the test counts threads; identical on both runtimes"),
    '6.0/target/test_target_access.c': (
        'libomp',
        "libomp limit: libomp's allocator asserts (kmp_alloc.cpp:1385, unknown memory space) in host code; identical on both runtimes"),
    '6.0/target/test_target_nowait_argument.c': (
        'frontend',
        "OpenMP 6.0 nowait(expr) argument: clang-22 accepts it but the test's check fails identically on both runtimes"),
    '6.0/target/test_target_teams_groupprivate_devicetype_any.c': (
        'frontend',
        "OpenMP 6.0 groupprivate: clang-22's support is partial; identical failure on both runtimes"),
    '4.5/parallel_sections/test_parallel_sections.c': (
        'test',
        'the three sections spin-wait on each other, so they need 3 threads at once; the 2-CPU machine gives a team of 2 and the test hangs (same upstream)'),
    '4.5/target_teams_distribute/test_target_teams_distribute_nowait.c': (
        'ours',
        "intermittent: libomp assertion 'task_team != NULL' (kmp_tasking.cpp:4368) once under load; 0 failures in 20 reruns on each side"),
    '5.0/allocate/test_allocate_allocator.c': (
        'libomp',
        "host-only code: libomp asserts in kmp_alloc.cpp:1385 on the memory space of the allocator for '#pragma omp allocate ... allocator(x_alloc)'; identical upstream"),
}

LIT_NOTES = {
    'mapping/target_uses_allocator.c': (
        'libomp',
        "libomp limit: the program aborts (SIGABRT) in libomp's allocator on both sides, before printing anything"),
    'offloading/info.c': (
        'ours',
        "LIBOMPTARGET_INFO messages: ours names the source file with its full path ('being_mapper at /.../info.c:65:1'), upstream by its base name ('at info.c:65:1')"),
    'offloading/thread_state_1.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with 2 threads, using 1 instead' for the nested parallel region on this 2-CPU machine, on both sides"),
    'offloading/thread_state_2.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with 2 threads, using 1 instead' for the nested parallel region on this 2-CPU machine, on both sides"),
    'mapping/alloc_fail.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found); the failure itself is reported"),
    'mapping/array_section_implicit_capture.c': (
        'ours',
        "implicit partial maps and padding between members: pointers mapped as A[64:128] and captured implicitly are not translated to the device copy of the section (result 'Failure')"),
    'mapping/declare_mapper_nested_default_mappers.cpp': (
        'ours',
        "declare mapper with nested default mappers: members mapped through the nested mapper read 0 on the device ('0 0 0' instead of '222 777 0')"),
    'mapping/declare_mapper_nested_default_mappers_array_subscript.cpp': (
        'ours',
        "declare mapper with nested default mappers: (array subscript) the device sees '0 0 0'"),
    'mapping/declare_mapper_nested_default_mappers_ptr_subscript.cpp': (
        'ours',
        "declare mapper with nested default mappers: (pointer subscript) the device sees '0 0 0'"),
    'mapping/declare_mapper_nested_default_mappers_var.cpp': (
        'ours',
        "declare mapper with nested default mappers: (variable) the device sees '0 0 0'"),
    'mapping/is_accessible.cpp': (
        'ours',
        'omp_target_is_accessible: ours answers true for host memory on the CPU device (deliberate, commit efaedd5); upstream answers false unless unified memory is on'),
    'mapping/lambda_by_value.cpp': (
        'ours',
        'lambda captured by value with a reference capture: in the target region the reference member reads the old value (111, not 222)'),
    'mapping/low_alignment.c': (
        'ours',
        "implicit partial maps and padding between members: (struct layout across constructs) map(from: t.a) inside 'target data map(from: t.i, t.j)' loses t.i/t.j (no 'PASS 2')"),
    'mapping/ompx_hold/omp_target_disassociate_ptr.c': (
        'ours',
        "ompx_hold with omp_target_disassociate_ptr: upstream refuses ('Trying to disassociate a pointer with a non-zero hold reference count'); ours says the address was not associated"),
    'mapping/padding_not_mapped.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target_array_extension.c': (
        'ours',
        "present diagnostics: for a 'present' section larger than the mapped one ours reports 'explicit extension not allowed' instead of upstream's 'device mapping required by 'present' map type modifier does not exist for host address ... (N bytes)'"),
    'mapping/present/target_data.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target_data_array_extension.c': (
        'ours',
        "present diagnostics: same as target_array_extension.c for 'target data' ('explicit extension not allowed' instead of the 'present' message)"),
    'mapping/present/target_enter_data.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target_exit_data_delete.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target_exit_data_release.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target_update.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/target_update_array_extension.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/unified_shared_memory.c': (
        'ours',
        "requires/forced unified memory: under 'requires unified_shared_memory', map(present: i) of an unmapped host variable must succeed (host memory is device memory); ours reports the 'present' failure"),
    'mapping/present/zero_length_array_section.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/present/zero_length_array_section_exit.c': (
        'ours',
        "present diagnostics: the fatal message says 'while offloading is default' where upstream says 'mandatory' (upstream turns OMP_TARGET_OFFLOAD=DEFAULT into MANDATORY once a device is found)"),
    'mapping/target_implicit_partial_map.c': (
        'ours',
        'implicit partial maps and padding between members: with arr[50:2] mapped, the implicit map of the whole arr in a target region must count as present; ours rejects it as an explicit extension'),
    'mapping/target_map_for_member_data.cpp': (
        'ours',
        'implicit partial maps and padding between members: members of a derived class used in a target region with map(res): ours rejects the implicit map of the object as an explicit extension'),
    'mapping/use_device_addr/target_data_use_device_addr_arrsec_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_addr on an array section already mapped, the address in the region is not the device address ('A: 0')"),
    'mapping/use_device_addr/target_data_use_device_addr_arrsec_ref_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_addr on an array section of a reference, wrong device address ('E: 0')"),
    'mapping/use_device_addr/target_data_use_device_addr_arrsec_ref_not_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_addr on an array section of a reference mapped by the same construct, wrong device address ('F: 1 1 0')"),
    'mapping/use_device_addr/target_data_use_device_addr_var_ref_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_addr on a reference to a mapped variable, wrong device address ('F: 0')"),
    'mapping/use_device_addr/target_data_use_device_addr_var_ref_not_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_addr on a reference mapped by the same construct, wrong device address ('K: 1 1 0')"),
    'mapping/use_device_addr/target_wrong_use_device_addr.c': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_addr of an unmapped variable, upstream prints the LIBOMPTARGET_INFO message 'variable x does not have a valid device counterpart'; ours prints nothing"),
    'mapping/use_device_ptr/array_section_use_device_ptr.c': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_ptr on an array section A[FROM:LENGTH], the pointer in the region is not the device address of the section base (result 'Failure')"),
    'mapping/use_device_ptr/target_data_use_device_ptr_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_ptr on a pointer whose pointee is already mapped, wrong device address ('A: 0')"),
    'mapping/use_device_ptr/target_data_use_device_ptr_ref_existing.cpp': (
        'ours',
        "use_device_ptr/use_device_addr on array sections and references: use_device_ptr on a reference to a pointer, wrong device address ('E: 0')"),
    'offloading/force-usm.cpp': (
        'ours',
        "requires/forced unified memory: LIBOMPTARGET_INFO=32 shows an extra 4-byte 'unknown' copy where upstream's first copy is pGI (8 bytes)"),
    'offloading/requires.c': (
        'ours',
        'requires/forced unified memory: (requires consistency) a library registered with different \'requires\' flags must abort with "fatal error 2: \'#pragma omp requires reverse_offload\' not used consistently!"; ours ignores the (empty) image and goes on'),
    'offloading/shared_lib_fp_mapping.c': (
        'ours',
        "function-pointer mapping in a shared library: the .so's device image does not load ('undefined symbol: __llvm_omp_indirect_call_lookup')"),
}
