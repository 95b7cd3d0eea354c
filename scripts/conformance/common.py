"""Helpers shared by run-vv.py and run-upstream-lit.py.

Nothing here knows about a particular suite: running a command with a time
limit (killing its whole process group), the two toolchains under
comparison, the manual notes file, and replacing one marked section of
docs/Conformance.md.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
# Fetched test data lives beside the checkout, never inside it.
DEFAULT_DATA = os.path.join(os.path.dirname(REPO), "conformance-data")
DEFAULT_DOC = os.path.join(REPO, "docs", "Conformance.md")
NOTES_FILE = os.path.join(os.path.dirname(__file__), "notes.py")

# Cause classes of a test that fails on our side (keys used in notes.py).
CAUSES = {
    "frontend": "frontend rejects it (clang-22/flang-22; the same error upstream)",
    "miscompile": "clang-22/flang-22 miscompiles it",
    "libomp": "libomp limit",
    "test": "the test itself is wrong or depends on the machine",
    "ours": "ours",
    "ours?": "suspect ours (fails here, passes upstream; not yet investigated)",
    "both?": "fails on both sides (not yet investigated)",
}


def truncate(text, limit=4000):
    """Keep the head and the tail of a long output."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + "\n[... %d characters cut ...]\n" % (
        len(text) - limit) + text[-half:]


def run(cmd, cwd, timeout, env=None, shell=False):
    """Run cmd, return (status, output, seconds).

    status is the exit code, -N for death by signal N, or "timeout".
    stdout and stderr are merged. On timeout the whole process group is
    killed, so programs the command started die with it.
    """
    start = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, shell=shell, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
        status = "timeout"
    text = out.decode("utf-8", "replace")
    return status, text, time.monotonic() - start


def status_text(status):
    if status == "timeout":
        return "timeout"
    if isinstance(status, int) and status < 0:
        try:
            return "signal %s" % signal.Signals(-status).name
        except ValueError:
            return "signal %d" % -status
    return "exit %s" % status


def upstream_libdir(data_dir):
    """A folder with libomptarget.so -> Debian's libomptarget.so.22.1.

    Debian ships the versioned library only, so -lomptarget needs this link.
    """
    folder = os.path.join(data_dir, "upstream-lib")
    os.makedirs(folder, exist_ok=True)
    link = os.path.join(folder, "libomptarget.so")
    if not os.path.lexists(link):
        os.symlink(os.path.join(LLVM_LIB, "libomptarget.so.22.1"), link)
    return folder


def toolchains(prefix, data_dir):
    """The two sides: drivers and the extra link flags of each."""
    up_link = ["-L" + upstream_libdir(data_dir), "-Wl,-rpath," + LLVM_LIB]
    return {
        "ours": {
            "cc": os.path.join(prefix, "bin", "clang"),
            "cxx": os.path.join(prefix, "bin", "clang++"),
            "fc": os.path.join(prefix, "bin", "flang"),
            "link": [],
            "libdir": os.path.join(prefix, "lib"),
        },
        "upstream": {
            "cc": os.path.join(LLVM_BIN, "clang"),
            "cxx": os.path.join(LLVM_BIN, "clang++"),
            "fc": os.path.join(LLVM_BIN, "flang"),
            "link": up_link,
            "libdir": LLVM_LIB,
        },
    }


def load_notes(key):
    """The manual notes: {test: (cause, one-line reason)} for one suite."""
    if not os.path.exists(NOTES_FILE):
        return {}
    scope = {}
    with open(NOTES_FILE) as f:
        exec(compile(f.read(), NOTES_FILE, "exec"), scope)
    notes = scope.get(key, {})
    for test, (cause, _reason) in notes.items():
        if cause not in CAUSES:
            raise SystemExit("notes.py: %s: unknown cause %r (one of %s)" %
                             (test, cause, ", ".join(CAUSES)))
    return notes


def placeholders(text, places):
    """Replace this machine's folders in text by placeholders.

    places maps a folder to its placeholder (e.g. the repository to
    <checkout>); longer folders are replaced first, so a folder inside
    another keeps its own name. The documents users read must not carry the
    paths of the machine that produced them.
    """
    for folder in sorted(places, key=len, reverse=True):
        if folder:
            text = text.replace(os.path.abspath(folder).rstrip("/") + "/",
                                places[folder] + "/")
            text = text.replace(os.path.abspath(folder), places[folder])
    return text


def replace_section(doc, name, body, preamble, places=None):
    """Write body between <!-- BEGIN name --> and <!-- END name --> in doc.

    The file is created with preamble if it does not exist; a missing
    section is appended. Other sections are left as they are. Folders of
    this machine in body are written as placeholders: the repository as
    <checkout>, plus whatever places (folder -> placeholder) adds.
    """
    body = placeholders(body, dict({REPO: "<checkout>"}, **(places or {})))
    begin, end = "<!-- BEGIN %s -->" % name, "<!-- END %s -->" % name
    text = preamble if not os.path.exists(doc) else open(doc).read()
    block = "%s\n%s\n%s" % (begin, body.rstrip("\n"), end)
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: block, text)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(doc, "w") as f:
        f.write(text)


def load_json(path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {}


def save_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def first_line(text, patterns):
    """The first line of text matching one of the regexes, else ''."""
    for line in text.splitlines():
        for p in patterns:
            if re.search(p, line):
                return line.strip()
    return ""


DOC_PREAMBLE = """# Conformance

How this toolchain (our shims, `clang-linker-wrapper`, `libomptarget`, plugins
and device runtime on Debian's clang-22/flang-22 frontends) compares with
Debian's own LLVM 22 offloading (Debian's drivers and Debian's
`libomptarget.so.22.1`) on two public test suites, both run for the CPU
device (`x86_64-pc-linux-gnu`). The sections below are generated; do not
edit them by hand. Rerun:

```sh
scripts/conformance/run-vv.py /path/to/OpenMP_VV          # section 1
scripts/conformance/fetch-upstream-lit.py                 # once: downloads tests
scripts/conformance/run-upstream-lit.py                   # section 2
```

Both runners keep their results (JSON) and build folders under
`build-conformance/` (git-ignored), can rerun a subset (`--filter`) and
regenerate the document from the saved results alone (`--report-only`).
Causes found by hand are in `scripts/conformance/notes.py` (test -> cause,
one-line reason); everything else is classified automatically.
"""


def prefix_info(prefix):
    """Which build of ours ran: repository HEAD and the library's time."""
    lib = os.path.join(prefix, "lib", "libomptarget.so.22.1")
    st, out, _ = run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                     REPO, 30)
    when = (time.strftime("%Y-%m-%d %H:%M UTC",
                          time.gmtime(os.path.getmtime(lib)))
            if os.path.exists(lib) else "missing")
    return "repository HEAD `%s` when run, `%s` built %s" % (
        out.strip() if st == 0 else "?", os.path.relpath(lib, REPO)
        if lib.startswith(REPO) else lib, when)
