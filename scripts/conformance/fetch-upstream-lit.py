#!/usr/bin/env python3
"""Get upstream LLVM's offload tests for run-upstream-lit.py.

The tests are taken from the same LLVM release as the installed clang-22:
its source tarball (llvm-toolchain-22_<version>.orig.tar.xz) comes from
Debian's archive, and only offload/test/ is unpacked into the data folder
(default /work/conformance-data, outside the repository; nothing fetched is
ever committed). Alternatively copy offload/test/ from an llvm-project
checkout (--from-checkout) or unpack a tarball you already have
(--tarball).

Result: <data>/llvm-toolchain-22_<version>/offload/test/ with lit.cfg,
mapping/ and offloading/ (run-upstream-lit.py finds it there).

Example:
  scripts/conformance/fetch-upstream-lit.py
  scripts/conformance/fetch-upstream-lit.py --from-checkout ~/llvm-project
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

POOLS = [
    "http://deb.debian.org/debian/pool/main/l/llvm-toolchain-22",
    "http://deb.debian.org/debian-security/pool/updates/main/l/"
    "llvm-toolchain-22",
]


def installed_version():
    """Upstream version of the installed clang-22 package (e.g. 22.1.8)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "clang-22"],
                         capture_output=True, text=True, check=True).stdout
    version = out.split(":", 1)[-1]          # drop the epoch
    return version.split("-", 1)[0].split("~", 1)[0]


def download(name, dest):
    for pool in POOLS:
        url = "%s/%s" % (pool, name)
        try:
            print("downloading", url, flush=True)
            with urllib.request.urlopen(url, timeout=60) as r, \
                    open(dest + ".part", "wb") as f:
                shutil.copyfileobj(r, f, 1 << 20)
            os.replace(dest + ".part", dest)
            return url
        except OSError as e:
            print("  not there:", e, flush=True)
    raise SystemExit("could not download %s from Debian's archive" % name)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=common.DEFAULT_DATA,
                    help="where to put the tests (default %(default)s)")
    ap.add_argument("--version", help="LLVM version (default: that of the "
                    "installed clang-22 package)")
    ap.add_argument("--tarball", help="an llvm-toolchain-22_*.orig.tar.xz "
                    "already on disk")
    ap.add_argument("--from-checkout", metavar="LLVM_PROJECT",
                    help="copy offload/test/ from an llvm-project checkout")
    ap.add_argument("--keep-tarball", action="store_true",
                    help="keep the downloaded tarball in the data folder")
    args = ap.parse_args()
    os.makedirs(args.data, exist_ok=True)
    version = args.version or installed_version()
    top = "llvm-toolchain-22_%s" % version
    dest = os.path.join(args.data, top, "offload", "test")
    if args.from_checkout:
        src = os.path.join(args.from_checkout, "offload", "test")
        if not os.path.exists(os.path.join(src, "lit.cfg")):
            raise SystemExit("no offload/test/lit.cfg in %s" %
                             args.from_checkout)
        dest = os.path.join(args.data, "llvm-project-checkout", "offload",
                            "test")
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src, dest)
        print("copied to", dest)
        print("run: scripts/conformance/run-upstream-lit.py --tests", dest)
        return
    if os.path.exists(os.path.join(dest, "lit.cfg")):
        print("already there:", dest)
        return
    tarball = args.tarball
    if not tarball:
        name = "llvm-toolchain-22_%s.orig.tar.xz" % version
        tarball = os.path.join(args.data, name)
        if not os.path.exists(tarball):
            download(name, tarball)
    print("sha256", sha256(tarball), os.path.basename(tarball), flush=True)
    print("unpacking offload/test/ (takes a minute)", flush=True)
    subprocess.run(["tar", "-xJf", tarball, "-C", args.data, "--wildcards",
                    "*/offload/test/*"], check=True)
    if not os.path.exists(os.path.join(dest, "lit.cfg")):
        raise SystemExit("the tarball has no %s/offload/test/lit.cfg" % top)
    if not args.tarball and not args.keep_tarball:
        os.unlink(tarball)
    print("tests in", dest)


if __name__ == "__main__":
    main()
