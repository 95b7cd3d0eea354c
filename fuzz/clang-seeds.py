#!/usr/bin/env python3
"""Adds seeds made by clang-22 itself to the fuzz corpora, at build time.

    fuzz/clang-seeds.py --clang <clang++-22> --llvm-bindir <dir> --out <dir>

fuzz/make-seeds.py writes the committed seeds from the formats' definitions;
these ones are what the real compiler writes today, so the fuzzers start from
the exact shapes the toolchain reads in practice: fat objects compiled for
the CPU device (fuzz/seed-sources/), an archive of them, a shared library
linked from them, their `.llvm.offloading` sections and entry tables, and
the command line clang's driver hands the linker wrapper. Nothing here is
committed; the outputs go under --out/<harness>/.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

TRIPLE = "x86_64-pc-linux-gnu"


def run(cmd, **kwargs):
    result = subprocess.run(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit("clang-seeds: command failed (%d): %s\n%s" %
                 (result.returncode, " ".join(cmd), result.stdout))
    return result.stdout


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clang", required=True)
    parser.add_argument("--llvm-bindir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    sources = os.path.join(here, "seed-sources")
    objcopy = os.path.join(args.llvm_bindir, "llvm-objcopy")
    ar = os.path.join(args.llvm_bindir, "llvm-ar")

    seeds = {h: {} for h in ("offload-container", "entry-table",
                             "entry-object", "archive-scanner",
                             "wrapper-options")}
    with tempfile.TemporaryDirectory(prefix="clang-seeds.") as tmp:
        objects = []
        for name in ("kernels", "library"):
            obj = os.path.join(tmp, name + ".o")
            run([args.clang, "-O1", "-fPIC", "-fopenmp",
                 "-fopenmp-targets=" + TRIPLE, "-c",
                 os.path.join(sources, name + ".cpp"), "-o", obj])
            objects.append(obj)
            seeds["entry-object"]["clang-" + name + ".o"] = read(obj)
            section = os.path.join(tmp, name + ".offloading")
            run([objcopy, "--dump-section=.llvm.offloading=" + section, obj])
            seeds["offload-container"]["clang-" + name] = read(section)

        # A linked library: its entries hold addresses instead of relocations,
        # which is also what the runtime reads between EntriesBegin and
        # EntriesEnd. Linked without -fopenmp, so no linker wrapper runs and
        # the entry section stays as the compiler wrote it.
        library = os.path.join(tmp, "libfuzz.so")
        run([args.clang, "-shared", "-o", library] + objects)
        seeds["entry-object"]["clang-libfuzz.so"] = read(library)
        entries = os.path.join(tmp, "entries")
        run([objcopy, "--dump-section=llvm_offload_entries=" + entries,
             library])
        seeds["entry-table"]["clang-libfuzz"] = read(entries)

        archive = os.path.join(tmp, "libfuzz.a")
        run([ar, "rcs", archive] + objects)
        # The first byte is the harness's link-mode byte (plain, whole
        # archive, group with --should-extract).
        for flags, name in ((0, "plain"), (1, "whole"), (6, "group-extract")):
            seeds["archive-scanner"]["clang-archive-" + name] = \
                bytes([flags]) + read(archive)
        seeds["archive-scanner"]["clang-object"] = b"\0" + read(objects[0])

        # The wrapper's command line, as the driver writes it (-###).
        driver = run([args.clang, "-###", "-fopenmp",
                      "-fopenmp-targets=" + TRIPLE, "-o", "a.out"] + objects)
        for line in driver.splitlines():
            words = shlex.split(line)
            if words and os.path.basename(words[0]) == "clang-linker-wrapper":
                seeds["wrapper-options"]["clang-driver"] = \
                    b"\0".join(w.encode() for w in words[1:])
                break
        else:
            sys.exit("clang-seeds: no clang-linker-wrapper command in:\n" +
                     driver)

    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    for harness, files in seeds.items():
        os.makedirs(os.path.join(args.out, harness))
        for name, data in files.items():
            with open(os.path.join(args.out, harness, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
