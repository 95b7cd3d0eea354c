//===- CommandRunner.cpp - Run (or print) the wrapper's commands ----------===//

#include "CommandRunner.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wrapper {

void CommandRunner::print(ArrayRef<std::string> Argv) {
  // Same shape as `clang -###`: one line, every argument quoted.
  std::string Line;
  raw_string_ostream OS(Line);
  for (const std::string &Arg : Argv) {
    OS << ' ';
    sys::printArg(OS, Arg, /*Quote=*/true);
  }
  OS << '\n';
  std::lock_guard<std::mutex> Lock(PrintMutex);
  errs() << Line;
}

Error CommandRunner::run(ArrayRef<std::string> Argv, StringRef What) {
  if (Verbose || DryRun)
    print(Argv);
  if (DryRun)
    return Error::success();

  SmallVector<StringRef, 32> Refs(Argv.begin(), Argv.end());
  std::string Message;
  bool StartFailed = false;
  int Status = sys::ExecuteAndWait(Argv[0], Refs, /*Env=*/std::nullopt,
                                   /*Redirects=*/{}, /*SecondsToWait=*/0,
                                   /*MemoryLimit=*/0, &Message, &StartFailed);
  if (StartFailed)
    return createStringError(inconvertibleErrorCode(), What + ": cannot run '" +
                                                           Argv[0] +
                                                           "': " + Message);
  if (Status != 0)
    return createStringError(
        inconvertibleErrorCode(),
        What + ": '" + Argv[0] + "' " +
            (Status < 0 ? "crashed" + (Message.empty() ? "" : ": " + Message)
                        : "exited with code " + std::to_string(Status)));
  return Error::success();
}

} // namespace wrapper
