// OpenMP allocators inside a target region on a GPU: the predefined ones,
// alignment, zeroing, reallocation that keeps the contents, an allocator
// made with omp_init_allocator (`requires dynamic_allocators`) and its
// alignment trait, and a bad trait. Each team's threads allocate at once.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#pragma omp requires dynamic_allocators

int main(void) {
  int Errors = 0, MaxTeams = -1;
#pragma omp target teams num_teams(4) thread_limit(64) \
    map(tofrom : Errors, MaxTeams) reduction(+ : Errors)
  {
    if (omp_get_team_num() == 0)
      MaxTeams = omp_get_max_teams();
#pragma omp parallel reduction(+ : Errors)
    {
      int *P = (int *)omp_alloc(100 * sizeof(int), omp_default_mem_alloc);
      int *A = (int *)omp_aligned_alloc(256, 10 * sizeof(int),
                                        omp_large_cap_mem_alloc);
      int *Z = (int *)omp_calloc(50, sizeof(int), omp_pteam_mem_alloc);
      Errors += !P || !A || !Z || ((uintptr_t)A % 256) != 0;
      for (int I = 0; I < 100 && P; ++I)
        P[I] = I + omp_get_thread_num();
      for (int I = 0; I < 50 && Z; ++I)
        Errors += Z[I] != 0;
      P = (int *)omp_realloc(P, 200 * sizeof(int), omp_default_mem_alloc,
                             omp_default_mem_alloc);
      for (int I = 0; I < 100 && P; ++I)
        Errors += P[I] != I + omp_get_thread_num();
      omp_free(P, omp_default_mem_alloc);
      omp_free(A, omp_large_cap_mem_alloc);
      omp_free(Z, omp_pteam_mem_alloc);

      omp_alloctrait_t Traits[2] = {{omp_atk_alignment, 128},
                                    {omp_atk_fallback, omp_atv_null_fb}};
      omp_allocator_handle_t Mine =
          omp_init_allocator(omp_default_mem_space, 2, Traits);
      double *D = (double *)omp_alloc(33 * sizeof(double), Mine);
      Errors += !D || ((uintptr_t)D % 128) != 0;
      omp_free(D, Mine);
      omp_destroy_allocator(Mine);
      omp_alloctrait_t Bad = {omp_atk_alignment, 48};
      Errors += omp_init_allocator(omp_default_mem_space, 1, &Bad) !=
                omp_null_allocator;
    }
  }
  printf("device allocators: %d errors, max teams %d\n", Errors, MaxTeams);
  return Errors != 0;
}
