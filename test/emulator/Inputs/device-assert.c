// A failed assert() in a target region, and a misuse of the OpenMP API the
// device runtime checks in debug mode (unsetting a lock nobody set). The
// first argument picks which; "ok" runs both correctly.
#include <assert.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(int Argc, char **Argv) {
  const char *What = Argc > 1 ? Argv[1] : "ok";
  int User = strcmp(What, "assert") == 0, Misuse = strcmp(What, "lock") == 0;
  int Value = 41;
#pragma omp target teams num_teams(2) thread_limit(64) map(tofrom : Value)
#pragma omp parallel
  {
    if (omp_get_team_num() == 1 && omp_get_thread_num() == 5)
      assert(!User && "the host asked for a failing assertion");
    if (Misuse && omp_get_team_num() == 0 && omp_get_thread_num() == 0) {
      omp_lock_t Lock;
      omp_init_lock(&Lock);
      omp_unset_lock(&Lock);
    }
  }
  Value++;
  printf("device-assert: %s done, value %d\n", What, Value);
  return 0;
}
