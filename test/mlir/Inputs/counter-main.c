// Host program for declare-target-global.mlir.
#include <stdio.h>

extern int counter;
void bump(void);
void read_counter(int *out);

int main(void) {
  bump();
  bump();
  int device = -1;
  read_counter(&device);
  printf("device=%d host=%d\n", device, counter);
  return 0;
}
