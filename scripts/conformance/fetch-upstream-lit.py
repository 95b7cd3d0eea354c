#!/usr/bin/env python3
"""Get upstream LLVM's offload tests for run-upstream-lit.py.

The tests are taken from the same LLVM release as the installed clang-22:
its source tarball (llvm-toolchain-22_<version>.orig.tar.xz) comes through
apt's own source mechanism (`apt-get source`) from the Debian repositories
this machine's apt is configured with, and only offload/test/ is unpacked
into the data folder (default: conformance-data beside the checkout, outside
the repository; nothing fetched is ever committed). Alternatively copy offload/test/ from an llvm-project
checkout (--from-checkout) or unpack a tarball you already have
(--tarball).

Result: <data>/llvm-toolchain-22_<version>/offload/test/ with lit.cfg,
mapping/ and offloading/ (run-upstream-lit.py finds it there).

Example:
  scripts/conformance/fetch-upstream-lit.py
  scripts/conformance/fetch-upstream-lit.py --from-checkout ~/llvm-project
"""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from apt_source import (ensure_tarball, installed_version,  # noqa: E402
                        sha256, unpack)

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
    tarball = args.tarball or ensure_tarball(args.data, version)
    print("sha256", sha256(tarball), os.path.basename(tarball), flush=True)
    unpack(tarball, args.data, ["offload/test"])
    if not os.path.exists(os.path.join(dest, "lit.cfg")):
        raise SystemExit("the tarball has no %s/offload/test/lit.cfg" % top)
    if not args.tarball and not args.keep_tarball:
        # The tarball and what apt-get source brought beside it.
        for name in os.listdir(args.data):
            if name.startswith("llvm-toolchain-22_%s" % version) and \
                    not os.path.isdir(os.path.join(args.data, name)):
                os.unlink(os.path.join(args.data, name))
    print("tests in", dest)


if __name__ == "__main__":
    main()
