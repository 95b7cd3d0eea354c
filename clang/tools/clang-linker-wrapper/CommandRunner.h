//===- CommandRunner.h - Run (or print) the wrapper's commands -*- C++ -*-===//
//
// Every external program the wrapper starts goes through one runner, so
// `--dry-run` and `--wrapper-verbose` see exactly what would run.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_COMMANDRUNNER_H
#define CLANG_LINKER_WRAPPER_COMMANDRUNNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <mutex>
#include <string>

namespace wrapper {

class CommandRunner {
public:
  CommandRunner(bool Verbose, bool DryRun) : Verbose(Verbose), DryRun(DryRun) {}

  bool isDryRun() const { return DryRun; }

  /// Runs \p Argv (Argv[0] is the program's path) and waits for it. The
  /// program's own output goes straight to ours, so a failing tool explains
  /// itself; the error adds what the step was (\p What) and the exit code.
  /// Under --dry-run or --wrapper-verbose the command is printed first.
  llvm::Error run(llvm::ArrayRef<std::string> Argv, llvm::StringRef What);

  /// Runs \p Argv quietly and returns what it wrote to stdout and stderr
  /// (for commands that answer a question, such as `clang -###`). Runs
  /// under --dry-run too; the error names \p What.
  llvm::Expected<std::string> capture(llvm::ArrayRef<std::string> Argv,
                                      llvm::StringRef What);

  /// Prints a command the way run() does (thread safe).
  void print(llvm::ArrayRef<std::string> Argv);

private:
  bool Verbose;
  bool DryRun;
  std::mutex PrintMutex;
};

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_COMMANDRUNNER_H
