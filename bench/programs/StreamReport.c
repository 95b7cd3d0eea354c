/*===- StreamReport.c - RESULT and RUNTIME lines for Fortran programs ----===*\
|*                                                                          *|
|* The lines BenchCommon.h prints for the C++ programs (see there), for     *|
|* StreamKernels.f90, which calls these through bind(c).                    *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>

void benchReportResult(const char *Name, double Value) {
  printf("RESULT %s %.9g\n", Name, Value);
  fflush(stdout);
}

static int findRuntime(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  if (Info->dlpi_name && strstr(Info->dlpi_name, "libomptarget.so"))
    *(const char **)Data = Info->dlpi_name;
  return 0;
}

void benchReportRuntime(void) {
  const char *Found = NULL;
  dl_iterate_phdr(findRuntime, &Found);
  printf("RUNTIME %s\n", Found ? Found : "none");
  fflush(stdout);
}
