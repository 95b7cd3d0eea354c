// declare_target: what the three translation units share. main.cpp holds
// the kernels, other.cpp a device function and globals main's kernels use,
// libdt.cpp (archived as libdeclare_target.a) another device function and
// globals; only device code and the globals tie main.cpp to the library.
#ifndef DECLARE_TARGET_DT_H
#define DECLARE_TARGET_DT_H

#pragma omp begin declare target
constexpr int TableSize = 256;
constexpr int LinkSize = 64;

// Defined in other.cpp; called from main.cpp's kernels.
int otherScale(int X);
// Defined in libdt.cpp; called from main.cpp's kernels.
int libMix(int X, int Y);
#pragma omp end declare target

// `declare target enter`: a device copy exists for the whole program.
extern int OtherBase;            // other.cpp
extern int LibTable[TableSize];  // libdt.cpp
#pragma omp declare target enter(OtherBase, LibTable)

// `declare target link`: the device only has a reference, bound to the
// host array's device copy when a region maps it.
extern int LibLinked[LinkSize];  // libdt.cpp
#pragma omp declare target link(LibLinked)

// Called on the host only: keeps the host objects honest about what the
// library's host code sees.
int libHostSum();
int otherHostBase();

#endif // DECLARE_TARGET_DT_H
