// A parallel reduction nested in a generic-mode teams reduction, in teams
// that run several distribute iterations (so several parallel regions) each:
// every region after a team's first once counted lanes 28..31 twice, as the
// runtime's shuffles took the lanes of __activemask() (those that happened to
// leave the state machine's barrier together) instead of the region's lanes.
#include <stdio.h>

static int check(const char *What, int Blocks, int BlockSize, int Teams) {
  long long Sum = 0;
  double DSum = 0;
#pragma omp target teams distribute num_teams(Teams) reduction(+ : Sum, DSum)  \
    map(tofrom : Sum, DSum)
  for (int B = 0; B < Blocks; ++B) {
#pragma omp parallel for reduction(+ : Sum, DSum)
    for (int J = 0; J < BlockSize; ++J) {
      long long I = (long long)B * BlockSize + J;
      Sum += I % 7 + B;
      DSum += double(I % 7);
    }
  }
  long long WantSum = 0;
  double WantDSum = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int J = 0; J < BlockSize; ++J) {
      long long I = (long long)B * BlockSize + J;
      WantSum += I % 7 + B;
      WantDSum += double(I % 7);
    }
  if (Sum == WantSum && DSum == WantDSum)
    return 0;
  printf("%s: Sum=%lld DSum=%.1f, expected %lld %.1f\n", What, Sum, DSum,
         WantSum, WantDSum);
  return 1;
}

int main() {
  int Wrong = check("one team, two regions", 2, 32, 1) +
              check("4 teams, 20 blocks of 33", 20, 33, 4) +
              check("37 blocks of 1023", 37, 1023, 16);
  printf("nested reductions: %d wrong\n", Wrong);
  return Wrong != 0;
}
