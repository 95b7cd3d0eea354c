// A device image written by hand: one host-style kernel, one GPU-style
// kernel (it has a kernel environment but no CPU device runtime is linked,
// so it has no launcher) and one global.
int g = 5;

void kern(void *LaunchEnvironment, int *Out) {
  (void)LaunchEnvironment;
  *Out = 42 + g;
}

char gpu_kern_kernel_environment[64];
void gpu_kern(void *LaunchEnvironment, int *Out) {
  (void)LaunchEnvironment;
  *Out = -1;
}
