//===- DriverLibrary.h - GPU drivers opened at run time ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA and AMDGPU plugins have no link-time dependency on their drivers
// (libcuda.so.1, libhsa-runtime64.so.1): a machine without the driver must
// still load the plugin and get a clean "zero devices". Each plugin lists
// the entry points it calls in a table of (symbol name, function pointer
// slot) and resolves it here; a missing library or symbol becomes a message
// naming it, never a crash. LoadedDriver is the part both drivers keep.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_DRIVERLIBRARY_H
#define OFFLOAD_PLUGINS_GPU_DRIVERLIBRARY_H

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>

namespace offload {
namespace plugin {

/// One entry point to resolve: its exported name and where to store it.
struct DriverSymbol {
  const char *Name;
  void **Slot;
};

class DriverLibrary {
public:
  /// Opens \p Path with the dynamic loader's usual search. On failure
  /// returns null and sets \p Error to the loader's message.
  static std::unique_ptr<DriverLibrary> open(const std::string &Path,
                                             std::string &Error) {
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *Message = dlerror();
      Error = "cannot load '" + Path +
              "': " + (Message ? Message : "unknown dynamic loader error");
      return nullptr;
    }
    return std::unique_ptr<DriverLibrary>(new DriverLibrary(Handle, Path));
  }

  ~DriverLibrary() { dlclose(Handle); }
  DriverLibrary(const DriverLibrary &) = delete;
  DriverLibrary &operator=(const DriverLibrary &) = delete;

  /// Resolves every entry of \p Table. On the first missing symbol returns
  /// false with \p Error naming it and the library (an older driver than
  /// the plugin needs).
  bool resolve(const DriverSymbol *Table, size_t Count, std::string &Error) {
    for (size_t I = 0; I < Count; ++I) {
      void *Address = dlsym(Handle, Table[I].Name);
      if (!Address) {
        Error = "'" + Path + "' has no symbol '" + Table[I].Name +
                "' (the driver is older than this plugin needs)";
        return false;
      }
      *Table[I].Slot = Address;
    }
    return true;
  }

  /// Resolves the entries of \p Table the library has; the others stay
  /// null (entry points the plugin can do without, e.g. page-locking).
  void resolveOptional(const DriverSymbol *Table, size_t Count) {
    for (size_t I = 0; I < Count; ++I)
      *Table[I].Slot = dlsym(Handle, Table[I].Name);
  }

  const std::string &path() const { return Path; }

private:
  DriverLibrary(void *Handle, std::string Path)
      : Handle(Handle), Path(std::move(Path)) {}
  void *Handle;
  std::string Path;
};

/// The library a plugin loads: the value of the environment variable
/// \p OverrideVariable when it is set and not empty (to try another
/// driver), else \p DefaultName.
inline std::string driverLibraryPath(const char *OverrideVariable,
                                     const char *DefaultName) {
  const char *Override = std::getenv(OverrideVariable);
  return Override && *Override ? Override : DefaultName;
}

/// What a loaded driver (CUDADriver, HSARuntime) keeps whatever its API:
/// the library, the entry points resolved from it (\p EntryPoints, a
/// struct of function pointers) and, when it is unusable, why.
template <typename EntryPoints> class LoadedDriver {
public:
  /// Why there are no devices (empty when there are some).
  const std::string &unavailableReason() const { return Reason; }
  const EntryPoints &api() const { return API; }

protected:
  /// Opens \p Path and fills the slots of \p Table (members of API). On
  /// failure returns false with every entry point null and Reason saying
  /// "no <What>: ..." (the library cannot be loaded) or "unusable <What>:
  /// ..." (it lacks an entry point).
  bool open(const std::string &Path, const char *What,
            const DriverSymbol *Table, size_t Count) {
    std::string Error;
    Library = DriverLibrary::open(Path, Error);
    if (!Library) {
      Reason = std::string("no ") + What + ": " + Error;
      return false;
    }
    if (!Library->resolve(Table, Count, Error)) {
      API = EntryPoints();
      Reason = std::string("unusable ") + What + ": " + Error;
      return false;
    }
    return true;
  }

  std::unique_ptr<DriverLibrary> Library;
  EntryPoints API;
  std::string Reason;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_DRIVERLIBRARY_H
