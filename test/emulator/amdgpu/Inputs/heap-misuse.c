// free() of a block twice (argument "double") or of mapped memory the device
// heap did not hand out ("foreign") inside a target region: the device
// runtime stops the kernel instead of corrupting the heap. Any other
// argument frees the block once and the kernel finishes. The pointers go
// through a volatile so the compiler cannot see the misuse.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int Mode = argc < 2                          ? 0
             : strcmp(argv[1], "double") == 0  ? 1
             : strcmp(argv[1], "foreign") == 0 ? 2
                                               : 0;
  int Done = 0;
  int Mapped[16] = {0};
#pragma omp target map(from : Done) map(tofrom : Mapped)
  {
    char *volatile Block = (char *)malloc(64);
    char *volatile Second = Mode == 1   ? Block
                            : Mode == 2 ? (char *)&Mapped[4]
                                        : NULL;
    free(Block);
    free(Second);
    Done = 1;
  }
  printf("heap-misuse: kernel finished (%d)\n", Done);
  return 0;
}
