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
    '4.5/target_data/test_target_data_map_devices.F90': (
        'miscompile',
        'flang-22 (and clang-22) lower the end of target data with device -1, so it goes to the default device current at the end; the test changes it inside the region. The runtime cannot tell that end from target exit data. Reproducer: test/known-frontend-bugs/target-data-end-device.f90'),
    '4.5/target_data/test_target_data_map_from_array_sections.F90': (
        'miscompile',
        'flang-22 computes the host start of p(2:4,i,j) of an allocatable with the strides of dims 2 and 3 swapped; the kernel then writes outside the device copy (valgrind). Reproducer: test/known-frontend-bugs/map-section-scalar-subscripts.f90'),
    '4.5/target_data/test_target_data_map_to_array_sections.F90': (
        'miscompile',
        'the map(to:) twin of map_from_array_sections.F90 (the same sections of pointers with scalar subscripts); attributed to the same flang-22 bug, not reduced separately'),
    '4.5/target_teams_distribute_parallel_for/test_target_teams_distribute_parallel_for_thread_limit.F90': (
        'miscompile',
        'flang-22 passes num_threads(n) as the kernel thread count and drops thread_limit(m) given by variables (__tgt_target_kernel gets threads=n; clang-22 passes min(n,m) for the same C construct). Reproducer: test/known-frontend-bugs/thread-limit-dropped.f90'),
    '5.0/loop/test_loop_iterator.F90': (
        'miscompile',
        "flang-22 rewrites a standalone 'loop' (thread binding) to 'simd' (its warning says so) without making the iteration variable lastprivate, as OpenMP 5.0 requires for loop; the value after the loop is undefined on both builds (host-only -O0 build prints 8064, the device build 0; the host -O3 build passes by chance)"),
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
    'offloading/thread_state_1.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with 2 threads, using 1 instead' for the nested parallel region on this 2-CPU machine, on both sides"),
    'offloading/thread_state_2.c': (
        'libomp',
        "libomp limit: 'Cannot form a team with 2 threads, using 1 instead' for the nested parallel region on this 2-CPU machine, on both sides"),
    'mapping/is_accessible.cpp': (
        'ours',
        'omp_target_is_accessible: ours answers true for host memory on the CPU device (deliberate, commit efaedd5); upstream answers false unless unified memory is on'),
}
