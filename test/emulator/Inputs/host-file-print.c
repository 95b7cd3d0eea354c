// fprintf, vfprintf, fputs, fputc, putc and fwrite to a FILE * the device
// opened, through the host-service channel, interleaved across 64 threads;
// output to a FILE * the device did not open is refused with -1.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#pragma omp declare target
static int logTo(FILE *F, const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  int N = vfprintf(F, Format, Args);
  va_end(Args);
  return N;
}
#pragma omp end declare target

int main(int argc, char **argv) {
  const char *Path = argv[1];
  int Results[8] = {0};
  FILE *Foreign = stdin;
#pragma omp target map(to : Path[:strlen(Path) + 1]) map(tofrom : Results)
  {
    FILE *F = fopen(Path, "w");
    Results[0] = F != 0;
    Results[1] =
        fprintf(F, "int %d, string %s, double %.2f\n", 42, "forty-two", 4.25);
    Results[2] = fputs("fputs line\n", F);
    Results[3] = fputc('c', F);
    Results[4] = putc('\n', F);
    Results[5] = logTo(F, "vfprintf %x\n", 255);
    fprintf(F, "constant text\n"); // the optimizer's fwrite
    fprintf(F, "%s", "through fputs\n");
    Results[6] = fclose(F);
  }
  printf("open %d fprintf %d fputs %d fputc %c putc %d vfprintf %d close %d\n",
         Results[0], Results[1], Results[2], Results[3], Results[4], Results[5],
         Results[6]);
  fflush(stdout);
  int Lines[64] = {0};
#pragma omp target teams distribute parallel for num_teams(2) thread_limit(32) \
    map(to                                                                     \
        : Path[:strlen(Path) + 1]) map(tofrom                                  \
                                       : Lines)
  for (int I = 0; I < 64; ++I) {
    // Each thread appends one line of its own.
    FILE *F = fopen(Path, "a");
    Lines[I] = fprintf(F, "line %02d of thread %02d\n", I, I) +
               (fclose(F) == 0 ? 0 : 1000);
  }
  int Wrong = 0;
  for (int I = 0; I < 64; ++I)
    Wrong += Lines[I] != snprintf(NULL, 0, "line %02d of thread %02d\n", I, I);
  printf("appended 64 lines, %d wrong\n", Wrong);
  fflush(stdout);
  int Refused = 0;
#pragma omp target map(tofrom : Refused) firstprivate(Foreign)
  Refused = fprintf(Foreign, "never written %d\n", 1);
  printf("foreign FILE: %d\n", Refused);
  return 0;
}
