#pragma omp declare target
double base(int K) { return 2.0 * K; }
#pragma omp end declare target
