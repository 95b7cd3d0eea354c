#!/usr/bin/env python3
"""LLVM's release source, through apt's own source mechanism.

The source tarball of the installed clang-22's release
(llvm-toolchain-22_<version>.orig.tar.xz) comes from the Debian repositories
this machine's apt is configured with (`apt-get source --print-uris`, in a
private apt state with deb-src entries for the same repositories); it is
accepted only with the size and SHA-256 of apt's signed Sources index. No
host is named here. Nothing fetched is ever committed.

Used by fetch-upstream-lit.py (offload/test/) and by the GPU check kit's
upstream benchmark build (openmp/device/ and the headers it includes). As a
command it unpacks the given folders of the release into the data folder,
downloading the tarball first when it is not there:

  scripts/conformance/apt_source.py --data DIR [--path-file FILE] \
      openmp/device offload/include
  -> DIR/llvm-toolchain-22_<version> (the unpacked top folder), written to
     FILE, and printed as the only line of standard output

Progress (apt-get update, the download, the unpacking) goes to standard
error, apt's own output included, so a caller that captures standard output
gets the folder and nothing else even on a first run; --path-file spares a
caller from parsing output at all.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import urllib.request


def progress(*words):
    """A progress line: on standard error, which callers do not parse."""
    print(*words, file=sys.stderr, flush=True)


def installed_version():
    """Upstream version of the installed clang-22 package (e.g. 22.1.8)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "clang-22"],
                         capture_output=True, text=True, check=True).stdout
    version = out.split(":", 1)[-1]          # drop the epoch
    return version.split("-", 1)[0].split("~", 1)[0]


def apt_repositories():
    """The repositories apt is configured with: [(uri, suite, component)].

    Read from apt itself (`apt-get indextargets`), so the archive and its
    mirror are whatever this machine's apt sources say; no host is named
    here.
    """
    out = subprocess.run(
        ["apt-get", "indextargets", "--format",
         "$(REPO_URI)\t$(RELEASE)\t$(COMPONENT)\t$(TARGET_OF)"],
        capture_output=True, text=True, check=True).stdout
    repos = []
    for line in out.splitlines():
        uri, suite, component, kind = (line.split("\t") + [""] * 4)[:4]
        entry = (uri, suite, component)
        if kind == "deb" and uri and entry not in repos:
            repos.append(entry)
    if not repos:
        raise SystemExit("apt has no configured Debian repository "
                         "(apt-get indextargets printed none)")
    return repos


def private_apt_options(dest):
    """apt options for a private state with deb-src entries.

    Debian machines usually configure only binary (deb) repositories, so a
    private apt configuration adds deb-src entries for the same
    repositories; the system's configuration is not changed.
    """
    state = os.path.join(dest, "apt-state")
    os.makedirs(os.path.join(state, "lists", "partial"), exist_ok=True)
    sources = os.path.join(state, "sources.list")
    with open(sources, "w") as f:
        for uri, suite, component in apt_repositories():
            f.write("deb-src %s %s %s\n" % (uri, suite, component))
    options = ["-o", "Dir::Etc::SourceList=" + sources,
               "-o", "Dir::Etc::SourceParts=/dev/null",
               "-o", "Dir::State::Lists=" + os.path.join(state, "lists"),
               "-o", "APT::Get::List-Cleanup=0"]
    progress("apt-get update (source indexes, private state in %s)" % state)
    # apt-get prints its progress on standard output: send it to ours.
    subprocess.run(["apt-get", "-q", "update"] + options, check=True,
                   stdout=sys.stderr)
    return options


def source_files(package, version, options):
    """[(uri, name, size, sha256)] of the source package, as apt says.

    The sizes and hashes come from the repository's signed Sources index.
    """
    listing = subprocess.run(
        ["apt-cache"] + options + ["showsrc", package], capture_output=True,
        text=True, check=True).stdout
    versions = [line.split(":", 1)[1].strip() for line in listing.splitlines()
                if line.startswith("Version:")]
    match = [v for v in versions
             if v.split(":", 1)[-1].split("-", 1)[0].split("~", 1)[0] ==
             version]
    if not match:
        raise SystemExit("apt's sources have no %s %s (they have: %s)" % (
            package, version, ", ".join(versions) or "none"))
    out = subprocess.run(
        ["apt-get", "-q", "source", "--print-uris"] + options +
        ["%s=%s" % (package, match[0])], capture_output=True, text=True,
        check=True).stdout
    files = []
    for line in out.splitlines():
        if line.startswith("'"):
            uri, name, size, digest = line.split()
            files.append((uri.strip("'"), name, int(size),
                          digest.split(":", 1)[1]))
    return files


def candidate_uris(uri):
    """The file's URI from apt, then its pool path in every other repository.

    A security repository keeps sources in pool/updates/; some mirrors hold
    a source's tarball only in the main archive's pool/. Every candidate is
    a repository apt is configured with.
    """
    yield uri
    pool = uri[uri.index("/pool/") + 1:]
    plain = pool.replace("pool/updates/", "pool/", 1)
    for base, _suite, _component in apt_repositories():
        for path in (pool, plain):
            candidate = base.rstrip("/") + "/" + path
            if candidate != uri:
                yield candidate


def apt_source(package, version, dest):
    """Download the source package's upstream tarball into dest.

    Where it comes from is apt's business (its configured repositories);
    what is accepted is what apt's signed index says: size and SHA-256.
    """
    options = private_apt_options(dest)
    for uri, name, size, digest in source_files(package, version, options):
        if ".orig.tar." not in name:
            continue
        target = os.path.join(dest, name)
        for candidate in dict.fromkeys(candidate_uris(uri)):
            try:
                progress("downloading", candidate)
                with urllib.request.urlopen(candidate, timeout=60) as r, \
                        open(target + ".part", "wb") as f:
                    shutil.copyfileobj(r, f, 1 << 20)
            except OSError as e:
                progress("  not there:", e)
                continue
            if os.path.getsize(target + ".part") == size and \
                    sha256(target + ".part") == digest:
                os.replace(target + ".part", target)
                return target
            progress("  size or SHA-256 differs from apt's index; not used")
        raise SystemExit("%s: not available from any configured repository"
                         % name)
    raise SystemExit("%s %s has no upstream tarball" % (package, version))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tarball_path(data, version):
    return os.path.join(data, "llvm-toolchain-22_%s.orig.tar.xz" % version)


def ensure_tarball(data, version):
    """The release tarball in data, downloaded through apt if missing."""
    tarball = tarball_path(data, version)
    if not os.path.exists(tarball):
        apt_source("llvm-toolchain-22", version, data)
    if not os.path.exists(tarball):
        raise SystemExit("apt-get source gave no %s" % tarball)
    return tarball


def unpack(tarball, data, folders):
    """Unpack the given folders (paths inside the release) into data."""
    progress("unpacking %s from %s" % (" ".join(folders),
                                       os.path.basename(tarball)))
    subprocess.run(["tar", "-xJf", tarball, "-C", data, "--wildcards"] +
                   ["*/%s/*" % f.strip("/") for f in folders], check=True,
                   stdout=sys.stderr)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True,
                    help="where the tarball is (or goes) and is unpacked")
    ap.add_argument("--version", help="LLVM version (default: that of the "
                    "installed clang-22 package)")
    ap.add_argument("--tarball", help="an llvm-toolchain-22_*.orig.tar.xz "
                    "already on disk")
    ap.add_argument("--present", action="store_true",
                    help="only say (exit 0/1) whether the tarball is there")
    ap.add_argument("--path-file", help="also write the unpacked top folder "
                    "to this file (one line), for callers")
    ap.add_argument("folders", nargs="*",
                    help="folders of the release to unpack")
    args = ap.parse_args()
    version = args.version or installed_version()
    if args.present:
        sys.exit(0 if os.path.exists(args.tarball or
                                     tarball_path(args.data, version)) else 1)
    os.makedirs(args.data, exist_ok=True)
    tarball = args.tarball or ensure_tarball(args.data, version)
    top = os.path.join(args.data, "llvm-toolchain-22_%s" % version)
    missing = [f for f in args.folders
               if not os.path.isdir(os.path.join(top, f))]
    if missing:
        unpack(tarball, args.data, missing)
    for f in args.folders:
        if not os.path.isdir(os.path.join(top, f)):
            raise SystemExit("the tarball has no %s" % os.path.join(top, f))
    if args.path_file:
        with open(args.path_file, "w") as f:
            f.write(top + "\n")
    print(top, flush=True)


if __name__ == "__main__":
    main()
