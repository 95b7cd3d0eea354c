# CMake package of the offload toolchain, found by find_package(OffloadToolchain).
#
# Provides the imported target OffloadToolchain::OpenMPOffload: linking it
# adds -fopenmp and the offload targets to the compile and link options of
# C, C++ and Fortran code. The targets come from the cache variable
# OFFLOAD_TARGETS. The project must be configured with this prefix's
# compilers (bin/clang, bin/clang++, bin/flang), which bring the prefix's
# linker wrapper and runtime; see Usage.md ("CMake").
#
# Sets OffloadToolchain_PREFIX (the prefix this file belongs to) and
# OffloadToolchain_OFFLOAD_OPTIONS (the options derived from OFFLOAD_TARGETS).

if(CMAKE_VERSION VERSION_LESS 3.18)
  # $<LINK_LANGUAGE:...> in link options needs CMake 3.18.
  set(OffloadToolchain_FOUND FALSE)
  set(OffloadToolchain_NOT_FOUND_MESSAGE
      "OffloadToolchain needs CMake 3.18 or newer (this is ${CMAKE_VERSION})")
  return()
endif()

# The prefix is three levels above this file (lib/cmake/OffloadToolchain), so
# the package keeps working after the prefix is moved.
get_filename_component(OffloadToolchain_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.."
                       ABSOLUTE)

# A project may also set(OFFLOAD_TARGETS ...) before find_package(): only
# create the cache entry when there is no variable, since under policy
# CMP0126 OLD creating it would hide the project's value.
if(NOT DEFINED OFFLOAD_TARGETS)
  set(OFFLOAD_TARGETS "x86_64-pc-linux-gnu" CACHE STRING
      "Offload targets of OffloadToolchain::OpenMPOffload: target triples \
(x86_64-pc-linux-gnu, nvptx64-nvidia-cuda, amdgcn-amd-amdhsa) or GPU \
architectures (sm_90, gfx90a), as a ;-list")
endif()

# Triples become one -fopenmp-targets=, architectures one --offload-arch=.
set(_offload_triples)
set(_offload_archs)
foreach(_offload_entry IN LISTS OFFLOAD_TARGETS)
  if(_offload_entry MATCHES "^(sm_[0-9]+[af]?|gfx[0-9a-f]+(:[a-z-]+[+-])*|native)$")
    list(APPEND _offload_archs "${_offload_entry}")
  elseif(_offload_entry MATCHES "^[a-z0-9_]+(-[a-z0-9_.]+)+$")
    list(APPEND _offload_triples "${_offload_entry}")
  else()
    set(OffloadToolchain_FOUND FALSE)
    set(OffloadToolchain_NOT_FOUND_MESSAGE
        "OFFLOAD_TARGETS entry '${_offload_entry}' is neither a target triple \
(x86_64-pc-linux-gnu, nvptx64-nvidia-cuda, amdgcn-amd-amdhsa) nor a GPU \
architecture (sm_90, gfx90a)")
    return()
  endif()
endforeach()
if(NOT _offload_triples AND NOT _offload_archs)
  set(OffloadToolchain_FOUND FALSE)
  set(OffloadToolchain_NOT_FOUND_MESSAGE
      "OFFLOAD_TARGETS is empty: name at least one target triple or GPU \
architecture, e.g. -DOFFLOAD_TARGETS=x86_64-pc-linux-gnu")
  return()
endif()
if(_offload_triples AND _offload_archs)
  # clang-22 applies --offload-arch= to every -fopenmp-targets= triple (the
  # CPU image would be built for sm_90), and flang-22 cannot be given an
  # architecture per triple, so a mixed list cannot be expressed.
  set(OffloadToolchain_FOUND FALSE)
  string(REPLACE ";" ", " _offload_t "${_offload_triples}")
  string(REPLACE ";" ", " _offload_a "${_offload_archs}")
  set(OffloadToolchain_NOT_FOUND_MESSAGE
      "OFFLOAD_TARGETS mixes target triples (${_offload_t}) and GPU \
architectures (${_offload_a}): the drivers apply --offload-arch= to every \
-fopenmp-targets= triple, so list only triples or only architectures")
  return()
endif()
set(OffloadToolchain_OFFLOAD_OPTIONS -fopenmp)
if(_offload_triples)
  string(REPLACE ";" "," _offload_t "${_offload_triples}")
  list(APPEND OffloadToolchain_OFFLOAD_OPTIONS "-fopenmp-targets=${_offload_t}")
else()
  string(REPLACE ";" "," _offload_a "${_offload_archs}")
  list(APPEND OffloadToolchain_OFFLOAD_OPTIONS "--offload-arch=${_offload_a}")
endif()

# The options only mean something to this prefix's drivers: say early, and
# by name, which compiler is not one of them rather than leave it to fail on
# -fopenmp-targets= or to link another runtime.
get_property(_offload_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
foreach(_offload_lang_shim C:clang CXX:clang++ Fortran:flang)
  string(REPLACE ":" ";" _offload_pair "${_offload_lang_shim}")
  list(GET _offload_pair 0 _offload_lang)
  list(GET _offload_pair 1 _offload_shim)
  if(NOT _offload_lang IN_LIST _offload_languages)
    continue()
  endif()
  get_filename_component(_offload_real "${CMAKE_${_offload_lang}_COMPILER}"
                         REALPATH)
  get_filename_component(_offload_want
                         "${OffloadToolchain_PREFIX}/bin/${_offload_shim}"
                         REALPATH)
  if(NOT _offload_real STREQUAL _offload_want)
    message(WARNING
      "OffloadToolchain: the ${_offload_lang} compiler is "
      "${CMAKE_${_offload_lang}_COMPILER}, not this toolchain's "
      "${OffloadToolchain_PREFIX}/bin/${_offload_shim}: "
      "${_offload_lang} code linked to OffloadToolchain::OpenMPOffload will "
      "not get this prefix's offloading. Configure with "
      "-DCMAKE_${_offload_lang}_COMPILER="
      "${OffloadToolchain_PREFIX}/bin/${_offload_shim}")
  endif()
endforeach()

if(NOT TARGET OffloadToolchain::OpenMPOffload)
  add_library(OffloadToolchain::OpenMPOffload INTERFACE IMPORTED)
  # One generator expression per option: a `;` inside one would split it.
  set(_offload_compile)
  set(_offload_link)
  foreach(_offload_option IN LISTS OffloadToolchain_OFFLOAD_OPTIONS)
    list(APPEND _offload_compile
         "$<$<COMPILE_LANGUAGE:C,CXX,Fortran>:${_offload_option}>")
    list(APPEND _offload_link
         "$<$<LINK_LANGUAGE:C,CXX,Fortran>:${_offload_option}>")
  endforeach()
  set_target_properties(OffloadToolchain::OpenMPOffload PROPERTIES
    INTERFACE_COMPILE_OPTIONS "${_offload_compile}"
    INTERFACE_LINK_OPTIONS "${_offload_link}")
endif()

unset(_offload_triples)
unset(_offload_archs)
unset(_offload_entry)
unset(_offload_t)
unset(_offload_a)
unset(_offload_languages)
unset(_offload_lang_shim)
unset(_offload_pair)
unset(_offload_lang)
unset(_offload_shim)
unset(_offload_real)
unset(_offload_want)
unset(_offload_compile)
unset(_offload_link)
unset(_offload_option)
