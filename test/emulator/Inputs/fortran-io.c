// Fortran output and STOP from GPU threads, made with the runtime calls
// flang-22 emits for
//   PRINT *, 'team', t, 'thread', i, x        (list-directed scalars)
//   PRINT *, a                                  (an array, by descriptor)
//   WRITE (*, '(A,I0,A,F5.2)') 'n=', n, ' x=', x  (formatted)
//   STOP 3 / ERROR STOP 'bad input'
// (Flang has no -foffload-lto, which the emulator needs; a Fortran program
// making the same calls links for sm_90 in test/gpu/fortran-host-service.test.)
#include <omp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Flang's array descriptor (ISO_Fortran_binding.h as flang-22 lays it out).
struct Descriptor {
  void *Base;
  size_t ElemLen;
  int Version;
  unsigned char Rank;
  signed char Type;
  unsigned char Attribute, Extra;
  struct {
    int64_t Lower, Extent, Stride;
  } Dims[2];
};

void *_FortranAioBeginExternalListOutput(int, const char *, int);
void *_FortranAioBeginExternalFormattedOutput(const char *, size_t,
                                              const void *, int, const char *,
                                              int);
bool _FortranAioOutputInteger32(void *, int32_t);
bool _FortranAioOutputInteger64(void *, int64_t);
bool _FortranAioOutputReal32(void *, float);
bool _FortranAioOutputReal64(void *, double);
bool _FortranAioOutputLogical(void *, bool);
bool _FortranAioOutputAscii(void *, const char *, size_t);
bool _FortranAioOutputDescriptor(void *, const struct Descriptor *);
int _FortranAioEndIoStatement(void *);
void _FortranAStopStatement(int, bool, bool);
void _FortranAStopStatementText(const char *, size_t, bool, bool);

int main(int argc, char **argv) {
  const char *What = argc > 1 ? argv[1] : "print";
  int32_t A[2][3] = {{1, 2, 3}, {4, 5, 6}};
  double X = 2.5;
  if (!strcmp(What, "print")) {
#pragma omp target teams num_teams(2) thread_limit(3) map(to : A, X)
#pragma omp parallel
    {
      void *C = _FortranAioBeginExternalListOutput(6, "fortran-io.c", 1);
      _FortranAioOutputAscii(C, "team", 4);
      _FortranAioOutputInteger32(C, omp_get_team_num());
      _FortranAioOutputAscii(C, "thread", 6);
      _FortranAioOutputInteger64(C, omp_get_thread_num());
      _FortranAioOutputReal64(C, X);
      _FortranAioOutputLogical(C, true);
      _FortranAioEndIoStatement(C);
    }
#pragma omp target map(to : A, X)
    {
      // A Fortran 3x2 array over the C array (column major).
      struct Descriptor D = {A, 4, 20240719, 2,
                             9, 0, 0,        {{1, 3, 4}, {1, 2, 12}}};
      void *C = _FortranAioBeginExternalListOutput(6, "fortran-io.c", 2);
      _FortranAioOutputDescriptor(C, &D);
      _FortranAioEndIoStatement(C);
      const char Format[] = "(A,I0,A,F5.2)";
      C = _FortranAioBeginExternalFormattedOutput(Format, sizeof(Format) - 1,
                                                  NULL, 6, "fortran-io.c", 3);
      _FortranAioOutputAscii(C, "n=", 2);
      _FortranAioOutputInteger32(C, 42);
      _FortranAioOutputAscii(C, " x=", 3);
      _FortranAioOutputReal32(C, (float)X);
      _FortranAioEndIoStatement(C);
    }
    printf("host: done\n");
    return 0;
  }
  printf("host: before stop\n");
  fflush(stdout);
  if (!strcmp(What, "stop")) {
#pragma omp target teams num_teams(4) thread_limit(8)
    if (omp_get_team_num() == 2)
      _FortranAStopStatement(3, false, false);
  } else {
#pragma omp target
    _FortranAStopStatementText("bad input", 9, true, false);
  }
  printf("host: not reached\n");
  return 0;
}

// Host fallback only (never used: offloading is mandatory). The program
// does not export them, so the plugin replays with its own Flang runtime.
#if !defined(__NVPTX__) && !defined(__AMDGPU__)
static void notOnTheHost(void) {
  fprintf(stderr, "fortran-io: the host fallback ran\n");
  abort();
}
void *_FortranAioBeginExternalListOutput(int U, const char *F, int L) {
  notOnTheHost();
  return NULL;
}
void *_FortranAioBeginExternalFormattedOutput(const char *F, size_t N,
                                              const void *D, int U,
                                              const char *S, int L) {
  notOnTheHost();
  return NULL;
}
bool _FortranAioOutputInteger32(void *C, int32_t V) { return false; }
bool _FortranAioOutputInteger64(void *C, int64_t V) { return false; }
bool _FortranAioOutputReal32(void *C, float V) { return false; }
bool _FortranAioOutputReal64(void *C, double V) { return false; }
bool _FortranAioOutputLogical(void *C, bool V) { return false; }
bool _FortranAioOutputAscii(void *C, const char *S, size_t N) { return false; }
bool _FortranAioOutputDescriptor(void *C, const struct Descriptor *D) {
  return false;
}
int _FortranAioEndIoStatement(void *C) { return 0; }
void _FortranAStopStatement(int Code, bool E, bool Q) { notOnTheHost(); }
void _FortranAStopStatementText(const char *S, size_t N, bool E, bool Q) {
  notOnTheHost();
}
#endif
