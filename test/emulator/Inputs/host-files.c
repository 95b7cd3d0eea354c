// fopen/fwrite/fflush/fclose/fread and exit in target regions, performed by
// the host through the host-service channel.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *Path = argv[1];
  char Back[64] = {0};
  long Results[4] = {0};
  // A write larger than one request (8 KiB) goes in pieces.
  static char Big[20000];
  for (int I = 0; I < 20000; ++I)
    Big[I] = 'a' + I % 26;
#pragma omp target map(to : Path[ : strlen(Path) + 1], Big)                    \
    map(tofrom : Back, Results)
  {
    FILE *F = fopen(Path, "w");
    Results[0] = F != 0;
    Results[1] = fwrite("device wrote this\n", 1, 18, F);
    Results[2] = fwrite(Big, 1, 20000, F);
    fclose(F);
    F = fopen(Path, "r");
    Results[3] = fread(Back, 1, 17, F);
    fclose(F);
    if (fopen("/nonexistent/dir/file", "r") == 0)
      Results[0] += 10;
  }
  printf("open %ld wrote %ld+%ld read %ld: %s\n", Results[0], Results[1],
         Results[2], Results[3], Back);
  fflush(stdout);
#pragma omp target teams num_teams(3)
  {
    if (argc > 2)
      exit(7);
  }
  printf("not reached with an exit\n");
  return 0;
}
