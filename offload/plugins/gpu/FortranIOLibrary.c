/*===- FortranIOLibrary.c - libomptarget.fortran-io.so -------------------===*\
|*                                                                          *|
|* Part of the offload toolchain, under the Apache License v2.0 with LLVM   *|
|* Exceptions. See LICENSE.TXT for license information.                     *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                  *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/
/* The library's code is Flang's runtime (see HostService.cmake); a shared
 * library needs one source of its own. */
int __omptarget_fortran_io_version = 1;
