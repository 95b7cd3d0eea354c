// indirect_calls: calls through host addresses on the device (OpenMP 5.1
// `declare target indirect`, completed by this toolchain: see
// docs/IndirectCalls.md). Checks function pointers taken on the host and
// passed in by firstprivate, in a mapped array and in a mapped struct,
// called in generic and SPMD kernels; virtual calls on objects built inside
// a target region; and virtual calls on objects mapped from the host by
// value, whose host vtable pointers the runtime's table translates. Every
// function reports where it ran, so a call that reached the host copy (which
// on the CPU device would still compute the right value) fails.
// Mapping classes with vtables warns that they are not trivially copyable;
// the mapped objects here only carry ints besides the vtable pointer.
// KIT-FLAGS: -Wno-openmp-mapping
#include "check.h"

#include <cstdint>

// Outside an anonymous namespace: clang 22 rejects `declare target
// indirect` functions with internal linkage in the device compilation
// ("Offloading entry for indirect declare target variable is incorrect: the
// address is invalid"), static ones too.

// 1000 when running on the host, 0 on the device.
#pragma omp declare target
inline int where() { return 1000 * omp_is_initial_device(); }
#pragma omp end declare target

#pragma omp declare target indirect
int addOne(int X) { return where() + X + 1; }
int timesTwo(int X) { return where() + 2 * X; }
int square(int X) { return where() + X * X; }
#pragma omp end declare target

// The device runtime's translation (docs/IndirectCalls.md), called directly
// below to see that a mapped object's host vtable is in the table: on the
// CPU device a virtual call would work without it (the host vtable is
// readable there), on a GPU it would not.
#pragma omp begin declare variant match(device = {kind(nohost)})
extern "C" void *__llvm_omp_indirect_call_lookup(void *);
#pragma omp end declare variant
#pragma omp begin declare variant match(device = {kind(host)})
extern "C" void *__llvm_omp_indirect_call_lookup(void *P) { return P; }
#pragma omp end declare variant

namespace {

using Op = int (*)(int);

// The vtable pointer of a polymorphic object (its first word in the
// Itanium ABI).
#pragma omp declare target
inline void *vtableOf(const void *Object) {
  void *Vptr;
  __builtin_memcpy(&Vptr, Object, sizeof(Vptr));
  return Vptr;
}
#pragma omp end declare target

struct Holder {
  int Arg;
  Op Fn;
};

#pragma omp declare target indirect
struct Shape {
  int Size = 3;
  virtual ~Shape() = default;
  virtual int area() const { return where() + 0; }
  virtual int sides() const { return where() + 1; }
  // A virtual call from inside a virtual function.
  virtual int describe() const { return 100 * sides() + area(); }
};
struct Square : Shape {
  int area() const override { return where() + Size * Size; }
  int sides() const override { return where() + 4; }
};
struct Triangle : Shape {
  int sides() const override { return where() + 3; }
};
#pragma omp end declare target

} // namespace

int main() {
  check::expectOffloaded();

  // A pointer taken on the host, firstprivate into a generic region.
  Op Fn = timesTwo;
  int R = -1;
#pragma omp target firstprivate(Fn) map(from : R)
  R = Fn(21);
  CHECK(R == 42, "firstprivate pointer: %d, expected 42 (1042: host copy ran)",
        R);

  // A table of pointers mapped in, called by every thread of an SPMD
  // kernel; which entry each iteration calls varies.
  constexpr int N = 3000;
  Op Table[3] = {addOne, timesTwo, square};
  static int Out[N];
#pragma omp target teams distribute parallel for map(to : Table)            \
    map(from : Out)
  for (int I = 0; I < N; ++I)
    Out[I] = Table[I % 3](I % 50);
  int Wrong = 0, FirstWrong = -1;
  for (int I = 0; I < N; ++I) {
    const int X = I % 50;
    const int Expect = I % 3 == 0 ? X + 1 : I % 3 == 1 ? 2 * X : X * X;
    if (Out[I] != Expect && Wrong++ == 0)
      FirstWrong = I;
  }
  CHECK(Wrong == 0, "pointer table in SPMD kernel: %d wrong, Out[%d] = %d",
        Wrong, FirstWrong, FirstWrong >= 0 ? Out[FirstWrong] : 0);

  // A pointer inside a mapped struct.
  Holder H{7, square};
  int Member = -1;
#pragma omp target map(to : H) map(from : Member)
  Member = H.Fn(H.Arg);
  CHECK(Member == 49, "pointer in a mapped struct: %d, expected 49", Member);

  // Objects built on the device: their vtables are the device's own.
  int Local[4] = {-1, -1, -1, -1};
#pragma omp target map(from : Local)
  {
    Square Sq;
    Triangle Tri;
    const Shape *Shapes[2] = {&Sq, &Tri};
    Local[0] = Shapes[0]->area();
    Local[1] = Shapes[1]->sides();
    Local[2] = Shapes[0]->describe();
    Local[3] = Shapes[1]->describe();
  }
  CHECK(Local[0] == 9 && Local[1] == 3 && Local[2] == 409 && Local[3] == 300,
        "device-built objects: %d %d %d %d, expected 9 3 409 300", Local[0],
        Local[1], Local[2], Local[3]);

  // Device-built objects in a parallel region, each thread its own class.
  int Sides[64];
#pragma omp target teams distribute parallel for map(from : Sides)
  for (int I = 0; I < 64; ++I) {
    Square Sq;
    Triangle Tri;
    const Shape *S = I % 2 ? static_cast<const Shape *>(&Tri) : &Sq;
    Sides[I] = S->sides();
  }
  Wrong = 0;
  for (int I = 0; I < 64; ++I)
    if (Sides[I] != (I % 2 ? 3 : 4))
      ++Wrong;
  CHECK(Wrong == 0, "device-built objects in SPMD kernel: %d wrong", Wrong);

  // Objects mapped from the host by value: their vtable pointers are host
  // addresses, which the runtime's table translates on the device.
  Square HostSq;
  HostSq.Size = 5;
  Triangle HostTri;
  int Mapped[4] = {-1, -1, -1, -1};
#pragma omp target map(to : HostSq, HostTri) map(from : Mapped)
  {
    const Shape *A = &HostSq, *B = &HostTri;
    Mapped[0] = A->area();
    Mapped[1] = A->sides();
    Mapped[2] = B->sides();
    Mapped[3] = B->describe();
  }
  CHECK(Mapped[0] == 25 && Mapped[1] == 4 && Mapped[2] == 3 &&
            Mapped[3] == 300,
        "host-mapped objects: %d %d %d %d, expected 25 4 3 300", Mapped[0],
        Mapped[1], Mapped[2], Mapped[3]);

  // The table pairs the host vtable with the device's: a Square built on
  // the device has the vtable the mapped one's host vtable translates to.
  const std::uintptr_t HostVptr = std::uintptr_t(vtableOf(&HostSq));
  int Differs = -1, Translated = -1;
#pragma omp target map(to : HostSq) map(from : Differs, Translated)
  {
    Square DeviceSq;
    void *DeviceVptr = vtableOf(&DeviceSq);
    Differs = std::uintptr_t(DeviceVptr) != HostVptr;
    Translated = __llvm_omp_indirect_call_lookup(
                     reinterpret_cast<void *>(HostVptr)) == DeviceVptr;
  }
  CHECK(Differs == 1, "device and host vtables of Square are the same");
  CHECK(Translated == 1,
        "the host vtable of a mapped Square does not translate to the "
        "device's (no indirect-vtable entry in the table?)");

  // A pointer to a virtual member function, taken on the host.
  int (Shape::*Virtual)() const = &Shape::sides;
  int ViaMember = -1;
#pragma omp target map(to : HostSq) map(from : ViaMember)
  {
    const Shape *A = &HostSq;
    ViaMember = (A->*Virtual)();
  }
  CHECK(ViaMember == 4, "pointer to virtual member: %d, expected 4",
        ViaMember);
  return check::verdict();
}
