// declare_target, second unit: a device function called from another
// unit's kernels, and a `declare target enter` global it reads on the
// device (listed again here: the directive may repeat, in any unit).
#include "dt.h"

int OtherBase = 5;

#pragma omp declare target enter(OtherBase)

#pragma omp begin declare target
int otherScale(int X) { return 3 * X + OtherBase; }
#pragma omp end declare target

int otherHostBase() { return OtherBase; }
