# Helpers shared by every component.

# Where things go, both in the build tree and in the install prefix. The
# build tree mirrors the prefix so tools can find their neighbours the same way
# in both.
set(OFFLOAD_BUILD_BINDIR "${PROJECT_BINARY_DIR}/bin")
set(OFFLOAD_BUILD_LIBDIR "${PROJECT_BINARY_DIR}/lib")
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY "${OFFLOAD_BUILD_BINDIR}")
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY "${OFFLOAD_BUILD_LIBDIR}")
set(CMAKE_ARCHIVE_OUTPUT_DIRECTORY "${OFFLOAD_BUILD_LIBDIR}")
file(MAKE_DIRECTORY "${OFFLOAD_BUILD_BINDIR}" "${OFFLOAD_BUILD_LIBDIR}")

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
add_definitions(${LLVM_DEFINITIONS})

# Link a target against LLVM. Debian ships LLVM as one shared library, which
# keeps our tools small and their links fast; components name what they use.
function(offload_link_llvm target)
  if(LLVM_LINK_LLVM_DYLIB)
    target_link_libraries(${target} PRIVATE LLVM)
  else()
    llvm_map_components_to_libnames(libs ${ARGN})
    target_link_libraries(${target} PRIVATE ${libs})
  endif()
endfunction()

# A command-line tool installed into <prefix>/bin. It finds <prefix>/lib
# through a relative rpath, so the prefix can be moved.
function(offload_add_tool name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES
    INSTALL_RPATH "$ORIGIN/../lib"
    BUILD_RPATH "${OFFLOAD_BUILD_LIBDIR}")
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${name} PRIVATE -fno-rtti)
  endif()
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()

# Add an option to the configuration file the clang (or flang) shims pass to
# Debian's driver. <CFGDIR> stands for <prefix>/lib; a line starting with `$`
# applies only when the driver links.
function(offload_add_driver_config_line driver line)
  string(TOUPPER ${driver} upper)
  set_property(GLOBAL APPEND PROPERTY OFFLOAD_${upper}_CONFIG_LINES "${line}")
endfunction()
