# offload_add_gpu_plugin(<name> <sources>...): libomptarget.rtl.<name>, a GPU
# plugin whose driver is loaded with dlopen at run time (no CUDA toolkit or
# ROCm needed to build). Used by offload/plugins/{cuda,amdgpu}.
include("${CMAKE_CURRENT_LIST_DIR}/HostService.cmake")
function(offload_add_gpu_plugin name)
  # Nothing to do when the runtime (which defines offload_add_plugin) or the
  # plugin interface is not part of this build.
  if(NOT COMMAND offload_add_plugin OR NOT EXISTS
     "${PROJECT_SOURCE_DIR}/offload/plugins/common/include/PluginInterface.h")
    return()
  endif()
  # Shared sources of both GPU plugins.
  offload_add_plugin(${name} ${ARGN}
    "${PROJECT_SOURCE_DIR}/offload/plugins/gpu/DeviceMemoryPool.cpp"
    ${OFFLOAD_HOST_SERVICE_SOURCES})
  # (offload_add_plugin's include paths are relative to the calling folder.)
  target_include_directories(omptarget.rtl.${name} PRIVATE
    "${PROJECT_SOURCE_DIR}/offload/include"
    "${PROJECT_SOURCE_DIR}/offload/plugins/common/include"
    "${PROJECT_SOURCE_DIR}/offload/plugins")
  target_link_libraries(omptarget.rtl.${name} PRIVATE ${CMAKE_DL_LIBS})
  set_property(GLOBAL APPEND PROPERTY OFFLOAD_LIT_DEPENDS
               omptarget.rtl.${name})
endfunction()
