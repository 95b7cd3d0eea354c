// device_printf: printf inside target regions: from a plain `target`
// region with several conversions, from each thread of a `parallel` and
// from each team of a `teams` region. The program captures its own stdout
// while the regions run (fd 1 is pointed at a temporary file, and restored
// before anything else is printed), then checks that every expected line
// arrived and that each printf returned a positive value. (CUDA's device
// printf returns the number of arguments, not of characters, so only > 0
// is portable.) The captured text is echoed afterwards; run.sh shows a
// program's other output only when it fails, so it is there for diagnosis.
#include "check.h"

#include <cstring>
#include <string>
#include <unistd.h>

namespace {

constexpr int MaxThreads = 4, MaxTeams = 3;

struct Results {
  int Hello, Formats, NumThreads, NumTeams;
  int ThreadRet[MaxThreads], TeamRet[MaxTeams];
};

void printFromDevice(Results &R) {
#pragma omp target map(from : R)
  {
    R.Hello = printf("device says hello %d\n", 42);
    R.Formats = printf("device formats: %s %.2f %lld %x %c|%5d|%-3s|\n",
                       "text", 3.25, 1LL << 40, 0xbeefu, 'Z', 17, "ab");
  }
#pragma omp target parallel num_threads(MaxThreads) map(tofrom : R)
  {
    const int Th = omp_get_thread_num();
    if (Th == 0)
      R.NumThreads = omp_get_num_threads();
    if (Th < MaxThreads)
      R.ThreadRet[Th] = printf("device thread %d says hi\n", Th);
  }
#pragma omp target teams num_teams(MaxTeams) map(tofrom : R)
  {
    const int Team = omp_get_team_num();
    if (Team == 0)
      R.NumTeams = omp_get_num_teams();
    if (Team < MaxTeams)
      R.TeamRet[Team] = printf("device team %d says hi\n", Team);
  }
}

bool contains(const std::string &Text, const char *Line) {
  return Text.find(std::string(Line) + "\n") != std::string::npos;
}

} // namespace

int main() {
  check::expectOffloaded();

  Results R;
  std::memset(&R, 0, sizeof(R));
  std::fflush(stdout);
  FILE *Tmp = std::tmpfile();
  const int Saved = dup(1);
  CHECK(Tmp && Saved >= 0 && dup2(fileno(Tmp), 1) == 1,
        "cannot redirect stdout to a temporary file");
  printFromDevice(R);
  // The CPU device's printf goes through this process's stdio buffer; the
  // CUDA driver has written its output by the time the region returned.
  std::fflush(stdout);
  if (Saved >= 0) {
    dup2(Saved, 1);
    close(Saved);
  }
  std::string Text;
  if (Tmp) {
    std::rewind(Tmp);
    char Buf[4096];
    size_t Got;
    while ((Got = std::fread(Buf, 1, sizeof(Buf), Tmp)) > 0)
      Text.append(Buf, Got);
    std::fclose(Tmp);
  }
  std::printf("captured device output:\n%s(end of device output)\n",
              Text.c_str());

  CHECK(R.Hello > 0, "printf(\"device says hello %%d\\n\", 42) returned %d",
        R.Hello);
  CHECK(contains(Text, "device says hello 42"),
        "'device says hello 42' not in the captured output (%zu bytes)",
        Text.size());
  CHECK(R.Formats > 0, "printf with seven conversions returned %d",
        R.Formats);
  CHECK(contains(Text,
                 "device formats: text 3.25 1099511627776 beef Z|   17|ab |"),
        "the line with seven conversions is missing or wrong");

  CHECK(R.NumThreads >= 1 && R.NumThreads <= MaxThreads,
        "num_threads(%d) gave %d threads", MaxThreads, R.NumThreads);
  for (int Th = 0; Th < R.NumThreads && Th < MaxThreads; ++Th) {
    char Line[64];
    std::snprintf(Line, sizeof(Line), "device thread %d says hi", Th);
    CHECK(R.ThreadRet[Th] > 0 && contains(Text, Line),
          "'%s' missing (printf returned %d)", Line, R.ThreadRet[Th]);
  }
  CHECK(R.NumTeams >= 1 && R.NumTeams <= MaxTeams,
        "num_teams(%d) gave %d teams", MaxTeams, R.NumTeams);
  for (int Team = 0; Team < R.NumTeams && Team < MaxTeams; ++Team) {
    char Line[64];
    std::snprintf(Line, sizeof(Line), "device team %d says hi", Team);
    CHECK(R.TeamRet[Team] > 0 && contains(Text, Line),
          "'%s' missing (printf returned %d)", Line, R.TeamRet[Team]);
  }
  return check::verdict();
}
