// C output in a target region: printf, fprintf to stdout and stderr, puts,
// fputs, putchar.
#include <stdio.h>

int main(void) {
  int N = 5;
#pragma omp target map(to : N)
  {
    printf("n=%d %s %f %c %lld %p %5.2e %%\n", N, "text", 2.5, 'z',
           123456789012LL, (void *)0, 1.5);
    fprintf(stderr, "to stderr %d\n", N);
    fprintf(stdout, "to stdout %d\n", N);
    puts("puts");
    fputs("fputs\n", stdout);
    putchar('\n');
  }
  return 0;
}
