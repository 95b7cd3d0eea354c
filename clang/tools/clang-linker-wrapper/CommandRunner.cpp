//===- CommandRunner.cpp - Run (or print) the wrapper's commands ----------===//

#include "CommandRunner.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
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

Expected<std::string> CommandRunner::capture(ArrayRef<std::string> Argv,
                                             StringRef What) {
  SmallString<128> OutputPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("wrapper-capture", "txt", OutputPath))
    return createStringError(
        What + ": cannot create a temporary file: " + EC.message());
  FileRemover Remove(OutputPath);
  SmallVector<StringRef, 32> Refs(Argv.begin(), Argv.end());
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(OutputPath),
                                          StringRef(OutputPath)};
  std::string Message;
  int Status = sys::ExecuteAndWait(Argv[0], Refs, /*Env=*/std::nullopt,
                                   Redirects, /*SecondsToWait=*/0,
                                   /*MemoryLimit=*/0, &Message);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Output =
      MemoryBuffer::getFile(OutputPath);
  std::string Text = Output ? (*Output)->getBuffer().str() : std::string();
  if (Status != 0)
    return createStringError(What + ": '" + Argv[0] + "' failed" +
                             (Message.empty() ? "" : ": " + Message) +
                             (Text.empty() ? "" : ":\n" + Text));
  return Text;
}

} // namespace wrapper
