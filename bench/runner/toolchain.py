"""Where the two sides of every comparison live, and how to build with them.

"Ours" is the project's build tree (<build>/bin/clang++ shim, our
clang-linker-wrapper, <build>/lib/libomptarget.so.22.1); "upstream" is
Debian's LLVM 22 (clang++-22, its clang-linker-wrapper and
/usr/lib/llvm-22/lib/libomptarget.so.22.1).
"""

import hashlib
import os
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor

LLVM_ROOT = "/usr/lib/llvm-22"
CPU_TRIPLE = "x86_64-pc-linux-gnu"
RUNTIME_SONAME = "libomptarget.so.22.1"
OFFLOAD_FLAGS = ["-fopenmp", "-fopenmp-targets=" + CPU_TRIPLE]

SIDES = ("upstream", "ours")


class BuildError(Exception):
    """A benchmark program or input could not be built."""


def _is_ours(path, build_dir):
    """True when `path` exists and resolves into the build tree (not to one of
    Debian's files through a link)."""
    real = os.path.realpath(path)
    return os.path.exists(real) and real.startswith(
        os.path.realpath(build_dir) + os.sep)


class Toolchain:
    def __init__(self, build_dir, work_dir, jobs):
        self.build_dir = os.path.abspath(build_dir)
        self.work_dir = os.path.abspath(work_dir)
        self.jobs = jobs
        bindir = os.path.join(self.build_dir, "bin")
        self.ours_clangxx = os.path.join(bindir, "clang++")
        self.upstream_clangxx = os.path.join(LLVM_ROOT, "bin", "clang++")
        self.wrappers = {
            "ours": os.path.join(bindir, "clang-linker-wrapper"),
            "upstream": os.path.join(LLVM_ROOT, "bin", "clang-linker-wrapper"),
        }
        self.runtime_dirs = {
            "ours": os.path.join(self.build_dir, "lib"),
            "upstream": os.path.join(LLVM_ROOT, "lib"),
        }
        self.llvm_ar = os.path.join(LLVM_ROOT, "bin", "llvm-ar")
        # Debian ships libomptarget without its development link; links made
        # with Debian's driver find it through this folder.
        self.upstream_link_dir = os.path.join(self.work_dir, "upstream-lib")
        os.makedirs(self.upstream_link_dir, exist_ok=True)
        link = os.path.join(self.upstream_link_dir, "libomptarget.so")
        target = os.path.join(LLVM_ROOT, "lib", RUNTIME_SONAME)
        if os.path.realpath(link) != os.path.realpath(target):
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(target, link)

    # What is there to compare.
    def runtime_library(self, side):
        return os.path.join(self.runtime_dirs[side], RUNTIME_SONAME)

    def missing(self, side, what):
        """Why `side`'s component `what` ("runtime", "wrapper", "shim") cannot
        be measured, or None when it is there."""
        if side == "upstream":
            path = {"runtime": self.runtime_library("upstream"),
                    "wrapper": self.wrappers["upstream"],
                    "shim": self.upstream_clangxx}[what]
            return None if os.path.exists(path) else "not installed: " + path
        path = {"runtime": self.runtime_library("ours"),
                "wrapper": self.wrappers["ours"],
                "shim": self.ours_clangxx}[what]
        if not _is_ours(path, self.build_dir):
            return "not built: %s" % os.path.relpath(path, self.build_dir)
        return None

    def driver(self, side):
        """The C++ driver whose link uses `side`'s wrapper."""
        if side == "ours":
            return [self.ours_clangxx]
        return [self.upstream_clangxx, "-L" + self.upstream_link_dir]

    def link_inputs(self, side):
        """Files of `side` that end up in, or decide, what its links produce."""
        if side == "upstream":
            return [self.wrappers["upstream"]]
        lib = self.runtime_dirs["ours"]
        return [self.wrappers["ours"], os.path.join(lib, "clang-offload.cfg"),
                os.path.join(lib, CPU_TRIPLE, "libompdevice.a")]

    def llvm_version(self):
        out = subprocess.run([self.upstream_clangxx, "--version"],
                             capture_output=True, text=True).stdout
        return out.splitlines()[0] if out else "unknown"


# Incremental builds of generated and checked-in inputs.
def write_if_changed(path, text):
    """Writes `text` unless the file already holds it, so its time stamp and
    anything built from it stay valid."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def _digest(command, inputs):
    h = hashlib.sha256()
    h.update("\0".join(command).encode())
    for path in inputs:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def build(command, inputs, output, deps=()):
    """Runs `command` to make `output` unless its last build used the same
    command on the same input bytes. The output is written under a temporary
    name and renamed, so an interrupted build leaves nothing half-written.
    `deps` are extra files whose contents count (headers)."""
    stamp = output + ".stamp"
    tmp_out = output + ".part"
    command = [tmp_out if arg == output else arg for arg in command]
    digest = _digest([output if a == tmp_out else a for a in command],
                     list(inputs) + list(deps))
    try:
        with open(stamp) as f:
            if f.read() == digest and os.path.exists(output):
                return False
    except OSError:
        pass
    if os.path.exists(tmp_out):
        os.remove(tmp_out)
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        if os.path.exists(tmp_out):
            os.remove(tmp_out)
        raise BuildError("%s failed (%d):\n  %s\n%s" % (
            os.path.basename(command[0]), proc.returncode,
            " ".join(shlex.quote(a) for a in command), proc.stderr[-3000:]))
    os.replace(tmp_out, output)
    write_if_changed(stamp, digest)
    return True


def build_all(jobs, tasks):
    """Runs build(*task) for every task, `jobs` at a time; raises the first
    failure after the others finished."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(build, *task) for task in tasks]
        errors = []
        for future in futures:
            try:
                future.result()
            except BuildError as e:
                errors.append(e)
        if errors:
            raise errors[0]
