// Classes with a pure virtual function in device code: their vtables hold
// __cxa_pure_virtual, which the GPU device runtime must define for the AMD
// GPU image to link (the OpenMP V&V suite's
// declare_target_base_and_derived_class.cpp and test_target_PureVirDestr.cpp).
#include <cstdio>

#pragma omp declare target
struct Shape {
  // A pure virtual destructor defined out of line that frees memory (as
  // the V&V suite's test has it) keeps Shape's own vtable, and so its
  // __cxa_pure_virtual slots, in the optimised image: ~Square runs ~Shape,
  // which installs that vtable before it calls the allocator.
  int *Scratch = new int[4];
  virtual ~Shape() = 0;
  virtual int area() const = 0;
};
Shape::~Shape() { delete[] Scratch; }
struct Square : Shape {
  int Side;
  explicit Square(int S) : Side(S) {}
  int area() const override { return Side * Side; }
};
struct Rectangle : Shape {
  int W, H;
  Rectangle(int W, int H) : W(W), H(H) {}
  int area() const override { return W * H; }
};
#pragma omp end declare target

int main() {
  int Total = 0;
#pragma omp target map(tofrom : Total)
  {
    Square S(3);
    Rectangle R(2, 5);
    Shape *Shapes[] = {&S, &R};
    for (Shape *P : Shapes)
      Total += P->area();
    Shape *Heap = new Square(4);
    Total += Heap->area();
    delete Heap;
  }
  std::printf("total area %d\n", Total);
  return Total != 9 + 10 + 16;
}
