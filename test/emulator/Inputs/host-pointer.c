// A host pointer passed where a device pointer belongs: the emulator's
// device memory is a range of its own, so the copy is refused as on a GPU
// instead of silently writing host memory.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Device = omp_get_default_device(), Host = omp_get_initial_device();
  int Source[4] = {1, 2, 3, 4}, NotOnDevice[4] = {0, 0, 0, 0};
  int *OnDevice = (int *)omp_target_alloc(sizeof(Source), Device);
  int Good = omp_target_memcpy(OnDevice, Source, sizeof(Source), 0, 0, Device,
                               Host);
  int Bad = omp_target_memcpy(NotOnDevice, Source, sizeof(Source), 0, 0,
                              Device, Host);
  printf("device pointer: %d, host pointer: %s, host array untouched: %d\n",
         Good, Bad ? "refused" : "accepted", NotOnDevice[0] == 0);
  omp_target_free(OnDevice, Device);
  return 0;
}
