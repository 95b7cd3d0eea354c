# The host-service channel's host side (HostService*.cpp), compiled into
# each GPU plugin, and
# libomptarget.fortran-io.so: Flang's runtime I/O and STOP as a shared
# library, which a plugin loads to replay Fortran output from the device
# when the program does not export its own runtime (Flang links it
# statically).
set(OFFLOAD_HOST_SERVICE_SOURCES
  "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/HostServiceServer.cpp"
  "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/HostServiceFortran.cpp"
  "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/HostServiceDevice.cpp"
  "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/HostServiceStdio.cpp"
  "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/HostServiceFiles.cpp")

if(NOT TARGET omptarget.fortran-io AND OFFLOAD_FLANG_RT_DIR AND
   EXISTS "${OFFLOAD_FLANG_RT_DIR}/libflang_rt.runtime.a")
  # Only the members the replay calls, and what they need.
  set(entry_points
    _FortranAioBeginExternalListOutput _FortranAioBeginExternalFormattedOutput
    _FortranAioOutputInteger8 _FortranAioOutputInteger16
    _FortranAioOutputInteger32 _FortranAioOutputInteger64
    _FortranAioOutputReal32 _FortranAioOutputReal64
    _FortranAioOutputComplex32 _FortranAioOutputComplex64
    _FortranAioOutputLogical _FortranAioOutputAscii _FortranAioEndIoStatement
    _FortranAioBeginFlush _FortranAStopStatement _FortranAStopStatementText)
  set(undefined)
  foreach(symbol IN LISTS entry_points)
    list(APPEND undefined "-Wl,--undefined=${symbol}")
  endforeach()
  add_library(omptarget.fortran-io SHARED
    "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/FortranIOLibrary.c")
  target_link_options(omptarget.fortran-io PRIVATE ${undefined})
  target_link_libraries(omptarget.fortran-io PRIVATE
    "${OFFLOAD_FLANG_RT_DIR}/libflang_rt.runtime.a" m)
  set_target_properties(omptarget.fortran-io PROPERTIES
    PREFIX "lib" LIBRARY_OUTPUT_DIRECTORY "${OFFLOAD_BUILD_LIBDIR}")
  install(TARGETS omptarget.fortran-io LIBRARY DESTINATION lib)
  set_property(GLOBAL APPEND PROPERTY OFFLOAD_LIT_DEPENDS
               omptarget.fortran-io)
endif()
