"""A description of the machine a run measured, for the table and JSON."""

import os
import platform
import subprocess


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / (1024 * 1024), 1)
    except OSError:
        pass
    return None


def _git_revision(repo):
    try:
        rev = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return rev + (" (with uncommitted changes)" if dirty else "")
    except OSError:
        return "unknown"


def build_source(build_dir):
    """The source tree a CMake build tree was configured from, or None."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def describe(llvm_version, repo, build_dir):
    uname = os.uname()
    source = build_source(build_dir) or repo
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "kernel": "%s %s" % (uname.sysname, uname.release),
        "os": _os_name(),
        "llvm": llvm_version,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        # What was measured is what the build tree was built from, which need
        # not be the checkout this runner lives in.
        "measured_source": source,
        "revision": _git_revision(source),
    }


def _os_name():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def format_lines(machine):
    loads = "load average at start: %s" % " ".join(
        str(x) for x in machine["load_average_at_start"])
    if "load_average_at_end" in machine:
        loads += ", at end: %s" % " ".join(
            str(x) for x in machine["load_average_at_end"])
    return [
        "Machine: %s, %s cores, %s GiB, %s, %s" % (
            machine["cpu"], machine["cores"], machine["memory_gib"],
            machine["kernel"], machine["os"]),
        "LLVM:    %s;  measured tree: %s" % (machine["llvm"],
                                            machine["revision"]),
        "Load:    %s (%s cores)" % (loads, machine["cores"]),
    ]
