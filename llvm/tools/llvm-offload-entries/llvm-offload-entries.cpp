//===- llvm-offload-entries.cpp - Print the offload entries of objects ----===//
//
// Prints the offload entry tables (both layouts) of object files, linked
// programs and shared libraries, one line per record.
//
//===----------------------------------------------------------------------===//

#include "offload/Offloading/OffloadEntries.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace offload;

static cl::list<std::string> InputFiles(cl::Positional, cl::OneOrMore,
                                        cl::desc("<object files>"));

static StringRef kindName(uint16_t Kind) {
  switch (Kind) {
  case OffloadKindOpenMP:
    return "openmp";
  case OffloadKindCUDA:
    return "cuda";
  case OffloadKindHIP:
    return "hip";
  case OffloadKindSYCL:
    return "sycl";
  default:
    return "none";
  }
}

static bool printFile(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(Path);
  if (!ObjOrErr) {
    WithColor::error(errs(), "llvm-offload-entries")
        << Path << ": " << toString(ObjOrErr.takeError()) << "\n";
    return false;
  }
  const object::ObjectFile &Obj = *ObjOrErr->getBinary();
  for (EntryLayout Layout : {EntryLayout::Current, EntryLayout::Legacy}) {
    Expected<std::vector<OffloadEntry>> EntriesOrErr =
        readOffloadEntries(Obj, Layout);
    if (!EntriesOrErr) {
      WithColor::error(errs(), "llvm-offload-entries")
          << toString(EntriesOrErr.takeError()) << "\n";
      return false;
    }
    if (EntriesOrErr->empty())
      continue;
    outs() << Path << ": " << getEntriesSectionName(Layout) << " ("
           << (Layout == EntryLayout::Current ? "current" : "legacy")
           << " layout, " << EntriesOrErr->size() << " entries)\n";
    for (auto [Index, E] : enumerate(*EntriesOrErr)) {
      outs() << "  [" << Index << "] " << (E.isKernel() ? "kernel" : "global")
             << " " << E.Name;
      if (!E.isKernel())
        outs() << " size=" << E.Size;
      outs() << " flags=" << describeEntryFlags(E.Flags, E.isKernel());
      if (Layout == EntryLayout::Current)
        outs() << " kind=" << kindName(E.Kind) << " version=" << E.Version;
      if (!E.AddressSymbol.empty())
        outs() << " address=" << E.AddressSymbol;
      outs() << "\n";
    }
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "print the offload entry tables of objects\n");
  bool OK = true;
  for (const std::string &Path : InputFiles)
    OK &= printFile(Path);
  return OK ? 0 : 1;
}
