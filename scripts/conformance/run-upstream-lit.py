#!/usr/bin/env python3
"""Run upstream LLVM's offload regression tests against both runtimes.

The tests are LLVM's own offload/test/mapping/ and offload/test/offloading/
(with offloading/fortran/), which spell out what a drop-in libomptarget must
do. Get them with fetch-upstream-lit.py (LLVM's source of the installed
clang-22 release, from Debian's archive) or point --tests at any
offload/test folder of an llvm-project checkout.

How a test is run is taken from upstream itself: the runner loads LLVM's
lit (the installed /usr/lib/llvm-22/utils/lit) and upstream's
offload/test/lit.cfg with the values a CMake build for the CPU device
x86_64-unknown-linux-gnu would write into lit.site.cfg, so the
substitutions (%libomptarget-compile-run-and-check-generic,
%fcheck-generic, %not, ...), the features (x86_64-unknown-linux-gnu, host,
flang, unified_shared_memory, clang-22; not gpu, amdgpu, nvidiagpu, libc,
ompt, pgo) and the REQUIRES/UNSUPPORTED/XFAIL evaluation are upstream's.
lit's own runner is not used: each test's RUN lines are written into a bash
script the way lit's external shell does (set -o pipefail, set -x) and run
here with a time limit and in parallel.

Two sides:
  ours      our shims (<prefix>/bin/clang, clang++, flang), our libomptarget
  upstream  Debian's clang/clang++/flang and Debian's libomptarget.so.22.1

Results go to <out>/results.json; docs/Conformance.md gets the section
"upstream-lit". Causes found by hand live in scripts/conformance/notes.py
(LIT_NOTES).

Example:
  scripts/conformance/fetch-upstream-lit.py
  scripts/conformance/run-upstream-lit.py -j 2
  scripts/conformance/run-upstream-lit.py --filter mapping/lambda -v
  scripts/conformance/run-upstream-lit.py --report-only
"""

import argparse
import concurrent.futures
import glob
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TARGET = "x86_64-unknown-linux-gnu"
# LIBOMPTARGET_ALL_TARGETS of offload/CMakeLists.txt (LLVM 22).
ALL_TARGETS = [
    "aarch64-unknown-linux-gnu", "aarch64-unknown-linux-gnu-LTO",
    "amdgcn-amd-amdhsa", "powerpc64le-ibm-linux-gnu",
    "powerpc64le-ibm-linux-gnu-LTO", "powerpc64-ibm-linux-gnu",
    "powerpc64-ibm-linux-gnu-LTO", "x86_64-unknown-linux-gnu",
    "x86_64-unknown-linux-gnu-LTO", "nvptx64-nvidia-cuda",
    "nvptx64-nvidia-cuda-LTO", "nvptx64-nvidia-cuda-JIT-LTO",
    "s390x-ibm-linux-gnu", "s390x-ibm-linux-gnu-LTO",
    "riscv64-unknown-linux-gnu", "riscv64-unknown-linux-gnu-LTO",
    "loongarch64-unknown-linux-gnu", "loongarch64-unknown-linux-gnu-LTO",
    "spirv64-intel",
]
# Every folder of the release's offload/test that holds lit tests; lit's own
# REQUIRES/UNSUPPORTED rules decide which apply to the CPU device. unit/
# holds GoogleTest sources and Inputs/ helper files.
DEFAULT_FOLDERS = ("api,env,jit,libc,mapping,offloading,ompt,sanitizer,"
                   "tools,unified_shared_memory")
# Tests of LLVM's build tools, not of an offload runtime: neither side has
# them to run.
NOT_RUNTIME_TESTS = ("tools/offload-tblgen/",)
PASSING = ("PASS", "XFAIL")


def find_tests_root(data):
    """<data>/llvm-toolchain-*/offload/test, newest first."""
    cands = sorted(glob.glob(os.path.join(data, "llvm-toolchain-*",
                                          "offload", "test")), reverse=True)
    return cands[0] if cands else os.path.join(data, "offload", "test")


def make_config(args, side, tools):
    """Upstream's lit.cfg evaluated with the site values for one side."""
    import lit.LitConfig
    import lit.TestingConfig

    lit_config = lit.LitConfig.LitConfig(
        progname="lit", path=[], diagnostic_level="warning",
        useValgrind=False, valgrindLeakCheck=False, valgrindArgs=[],
        noExecute=False, debug=False, isWindows=False, order="lexical",
        params={})
    config = lit.TestingConfig.TestingConfig.fromdefaults(lit_config)
    t = tools[side]
    llvm_lib = common.LLVM_LIB
    site = {
        "bin_llvm_tools_dir": common.LLVM_BIN,
        "test_c_compiler": t["cc"],
        "test_cxx_compiler": t["cxx"],
        "test_fortran_compiler": t["fc"],
        # OPENMP_TEST_COMPILER_FEATURES for clang 22.1.8.
        "test_compiler_features": ["clang", "clang-22", "clang-22.1",
                                   "clang-22.1.8"],
        "test_openmp_flags": "-fopenmp -pthread",
        "test_extra_flags": "",
        "cuda_path": "", "cuda_libdir": "", "cuda_test_arch": "",
        "amdgpu_test_arch": "",
        "libomptarget_obj_root": os.path.join(args.out, side),
        # ours: our prefix's lib; upstream: the folder with the
        # libomptarget.so link to Debian's libomptarget.so.22.1.
        "library_dir": t["lit_libdir"],
        "llvm_library_dir": llvm_lib,
        "llvm_library_intdir": llvm_lib,
        "omp_header_directory": os.path.join(llvm_lib, "clang", "22",
                                             "include"),
        "omp_host_rtl_directory": llvm_lib,
        "llvm_lib_directory": llvm_lib,
        "operating_system": "Linux",
        "libomptarget_all_targets": ALL_TARGETS,
        "libomptarget_current_target": TARGET,
        "libomptarget_filecheck": os.path.join(common.LLVM_BIN, "FileCheck"),
        "libomptarget_not": os.path.join(common.LLVM_BIN, "not"),
        "offload_device_info": t["device_info"],
        "libomptarget_debug": False,
        # Both runtimes are built with OMPT (Debian's exports
        # ompt_start_tool's partner symbols too), so ompt/ tests apply.
        "has_libomptarget_ompt": True,
        "libomptarget_has_libc": False,
        "libomptarget_test_pgo": False,
        "offload_tblgen": os.path.join(common.LLVM_BIN, "offload-tblgen"),
    }
    for k, v in site.items():
        setattr(config, k, v)
    config.environment.setdefault("IS_APU", "0")
    lit_config.load_config(config, os.path.join(args.tests, "lit.cfg"))
    # --extra-features forces feature-gated tests (e.g. `gpu` for ompt/)
    # onto the CPU device, on both sides alike.
    for f in args.extra_features:
        config.available_features.add(f)
    return lit_config, config


def discover(args, config):
    tests = []
    for folder in args.folders.split(","):
        root = os.path.join(args.tests, folder)
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in config.excludes)
            # offloading/ includes offloading/fortran/ and the rest.
            for name in sorted(files):
                if os.path.splitext(name)[1] not in config.suffixes:
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), args.tests)
                if rel.startswith(NOT_RUNTIME_TESTS):
                    continue
                if args.filter and not re.search(args.filter, rel):
                    continue
                tests.append(rel)
    return sorted(set(tests))


def prepare(args, lit_config, config, rel):
    """(script lines, xfail?) or (None, reason) when unsupported."""
    import lit.Test
    import lit.TestRunner

    suite = lit.Test.TestSuite("offload", args.tests, config.test_exec_root,
                               config)
    test = lit.Test.Test(suite, tuple(rel.split("/")), config)
    script = lit.TestRunner.parseIntegratedTestScript(test)
    if isinstance(script, lit.Test.Result):
        return None, script.code.name, script.output, None
    tmp_dir, tmp_base = lit.TestRunner.getTempPaths(test)
    subs = lit.TestRunner.getDefaultSubstitutions(test, tmp_dir, tmp_base)
    conditions = {f: True for f in config.available_features}
    script = lit.TestRunner.applySubstitutions(
        script, subs, conditions,
        recursion_limit=config.recursiveExpansionLimit)
    return script, test.isExpectedToFail(), tmp_dir, tmp_base


def plain_commands(commands):
    """The RUN commands alone, one a line, for the document."""
    import lit.TestRunner

    out = []
    for ln in commands:
        m = re.fullmatch(lit.TestRunner.kPdbgRegex, ln)
        cmd = (m.group(2) if m else ln).strip()
        if cmd:
            out.append(cmd)
    return out


def side_tools(args):
    tools = common.toolchains(os.path.abspath(args.prefix), args.data)
    tools["ours"]["lit_libdir"] = tools["ours"]["libdir"]
    tools["upstream"]["lit_libdir"] = common.upstream_libdir(args.data)
    # tools/llvm-omp-device-info.c runs each side's device-info tool (Debian
    # ships none, so the upstream side fails it).
    tools["ours"]["device_info"] = os.path.join(
        os.path.abspath(args.prefix), "bin", "llvm-offload-device-info")
    tools["upstream"]["device_info"] = os.path.join(
        common.LLVM_BIN, "llvm-offload-device-info")
    return tools


def worker(args, side, rel):
    """Run one test in this process with lit's internal shell (what
    upstream's ShTest uses) and print the result as JSON."""
    import json
    import lit.TestRunner

    tools = side_tools(args)
    lit_config, config = make_config(args, side, tools)
    prep = prepare(args, lit_config, config, rel)
    if prep[0] is None:
        print(json.dumps({"status": prep[1], "why": prep[2].strip()}))
        return
    commands, xfail, tmp_dir, tmp_base = prep
    os.makedirs(tmp_dir, exist_ok=True)
    rec = {"commands": plain_commands(commands), "xfail": xfail}
    # Print the commands first: if the parent has to kill this process at
    # the time limit, it still knows what was run.
    print(json.dumps(rec), flush=True)
    try:
        out, err, code, _timeout = lit.TestRunner.executeScriptInternal(
            lit.Test.Test(lit.Test.TestSuite("offload", args.tests,
                                             config.test_exec_root, config),
                          tuple(rel.split("/")), config),
            lit_config, tmp_base, commands, os.path.dirname(tmp_dir))
    except Exception as e:  # lit's ScriptFatal, InternalShellError...
        out, err, code = "", "lit: %r" % e, 1
    rec.update(out=out, err=err, code=code)
    print(json.dumps(rec), flush=True)


def run_test(args, side, rel):
    """Run one test in a worker process, killed at the time limit."""
    import json

    cmd = [sys.executable, os.path.abspath(__file__), "--worker", side, rel,
           "--tests", args.tests, "--data", args.data, "--prefix",
           args.prefix, "--out", args.out, "--lit-path", args.lit_path,
           "--extra-features", ",".join(args.extra_features)]
    st, out, secs = common.run(cmd, args.out, args.timeout)
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    if not lines:
        return {"status": "UNRESOLVED", "stage": "runner",
                "first": out.strip()[-300:], "output": out[-4000:]}
    rec = json.loads(lines[-1])
    if "status" in rec:                      # unsupported
        return rec
    rec["seconds"] = round(secs, 1)
    xfail = rec["xfail"]
    if st == "timeout":
        rec["status"] = "TIMEOUT"
        text = "\n".join(ln for ln in out.splitlines()
                         if not ln.startswith("{"))
        rec["exit"] = "timeout"
    else:
        code = rec.pop("code")
        text = rec.pop("out") + rec.pop("err")
        rec["exit"] = "exit %d" % code
        if code == 0:
            rec["status"] = "XPASS" if xfail else "PASS"
        else:
            rec["status"] = "XFAIL" if xfail else "FAIL"
    if rec["status"] not in PASSING:
        rec["output"] = common.truncate(text, 24000)
        rec.update(diagnose(rec["output"], "timeout" if st == "timeout"
                            else 1))
    return rec


def diagnose(out, status):
    """Stage of the failure and the first differing line of output."""
    # lit's internal shell prints "# executed command: ..." and wraps each
    # command's output in "# | " lines.
    raw = out.splitlines()
    traced = [ln.split(": ", 1)[1] for ln in raw
              if ln.startswith("# executed command: ")]
    failing = traced[-1] if traced else ""
    lines = [ln[4:] if ln.startswith("# | ") else ln for ln in raw
             if not (ln.startswith("# ") and not ln.startswith("# | "))]
    d = {"failing_command": failing}
    fc_err = [i for i, ln in enumerate(lines)
              if re.search(r": error: .*(CHECK|expected string|is not on the line|"
                           r"did not match|found in input|empty|excluded)", ln)]
    if status == "timeout":
        d["stage"] = "timeout"
        d["first"] = "timed out in: " + failing[:200]
        return d
    if fc_err:
        i = fc_err[0]
        d["stage"] = "FileCheck"
        # FileCheck: "<file>:L:C: error: CHECK: ...", the quoted CHECK line,
        # a caret, then notes "scanning from here" and maybe "possible
        # intended match here", each followed by the input line.
        d["expected"] = lines[i + 1].strip() if i + 1 < len(lines) else ""
        notes = {}
        for j in range(i + 1, min(len(lines), i + 40)):
            m = re.search(r"<stdin>:(\d+):(\d+): note: (scanning from here|"
                          r"possible intended match here)", lines[j])
            if m and j + 1 < len(lines):
                notes.setdefault(m.group(3), (int(m.group(1)),
                                              int(m.group(2)),
                                              lines[j + 1].rstrip()))
            if j > i + 1 and re.search(r": error: ", lines[j]):
                break
        # FileCheck's dump of its input: "   6: text".
        dump = {}
        for ln in lines[i:]:
            m = re.match(r"^\s+(\d+): (.*)$", ln)
            if m:
                dump.setdefault(int(m.group(1)), m.group(2).rstrip())
        actual = ""
        if "scanning from here" in notes:
            ln_no, col, text = notes["scanning from here"]
            # Scanning starts at the end of the last matched line: what
            # the program printed instead is the next line.
            if col > len(text.rstrip()) and ln_no + 1 in dump:
                text = dump[ln_no + 1]
            elif col > len(text.rstrip()):
                text = "(end of output)"
            actual = text.strip()
        d["actual"] = actual
        if "possible intended match here" in notes:
            d["closest"] = notes["possible intended match here"][2].strip()
        d["first"] = "%s: expected %s; got %s" % (
            lines[i].split(": error: ", 1)[-1], d["expected"], d["actual"])
        rt = [ln for _n, ln in sorted(dump.items()) if re.search(
            r"omptarget|Libomptarget|OFFLOAD|Assertion|Segmentation|"
            r"core dumped|Aborted|error", ln)]
        if rt:
            d["runtime_message"] = rt[0].strip()[:300]
        return d
    compile_err = [ln for ln in lines if re.search(
        r"error: |undefined reference|clang-linker-wrapper", ln)]
    if compile_err and re.search(r"(clang|flang)(\+\+)?\s", failing + " "):
        d["stage"] = "compile/link"
        d["first"] = compile_err[0].strip()[:300]
        return d
    d["stage"] = "run"
    fails = [ln for ln in raw if ln.startswith("# error: ")]
    msg = [ln for ln in lines if ln.strip()]
    d["first"] = ((msg[-1].strip()[:240] + "; ") if msg else "") + \
        (fails[-1][2:] if fails else "") + " in: " + failing[:160]
    return d


def classify(rel, res, notes):
    if rel in notes:
        return notes[rel]
    o = res["ours"]
    return "ours?", "%s: %s" % (o.get("stage", "?"), o.get("first", ""))


def md(text, limit=300):
    return text.replace("|", "\\|").replace("`", "'")[:limit]


def report(args, results, meta):
    notes = common.load_notes("LIT_NOTES")
    tests = sorted(results)
    for t in tests:
        for rec in results[t].values():
            if rec.get("output") and rec.get("status") not in PASSING:
                rec.update(diagnose(rec["output"], "timeout" if
                                    rec["status"] == "TIMEOUT" else 1))
    applicable = [t for t in tests
                  if results[t]["ours"]["status"] not in
                  ("UNSUPPORTED", "EXCLUDED")]
    unsupported = len(tests) - len(applicable)
    ours_pass = [t for t in applicable
                 if results[t]["ours"]["status"] in PASSING]
    up_pass = [t for t in applicable
               if results[t].get("upstream", {}).get("status") in PASSING]
    ofup = [t for t in applicable if t in up_pass and t not in ours_pass]
    upfo = [t for t in applicable if t in ours_pass and t not in up_pass]
    both = [t for t in applicable if t not in ours_pass and
            t not in up_pass]
    L = ["## 2. Upstream LLVM offload regression tests", ""]
    L.append(
        "Source: `offload/test/{%s}` of %s. Run for the CPU device "
        "`%s` with upstream's `lit.cfg` (its substitutions, features and "
        "REQUIRES/UNSUPPORTED/XFAIL rules; features here: %s), each test "
        "limited to %d s. \"Passed\" is lit's PASS or XFAIL." %
        (args.folders, args.source_name, TARGET,
         ", ".join("`%s`" % f for f in sorted(args.features)), args.timeout))
    L.append("")
    L.append("Generated by `scripts/conformance/run-upstream-lit.py`; run on "
             "%s with ours = %s." % (meta.get("date", "?"),
                                     meta.get("ours", "?")))
    L.append("")
    L.append("| | tests |")
    L.append("|---|---:|")
    L.append("| files | %d |" % len(tests))
    L.append("| unsupported for this configuration | %d |" % unsupported)
    L.append("| **applicable** | **%d** |" % len(applicable))
    L.append("| ours passed | **%d** |" % len(ours_pass))
    L.append("| upstream passed | **%d** |" % len(up_pass))
    L.append("| ours fails, upstream passes | %d |" % len(ofup))
    L.append("| upstream fails, ours passes | %d |" % len(upfo))
    L.append("| both fail | %d |" % len(both))
    L.append("")
    by_folder = {}
    for t in applicable:
        key = "offloading/fortran" if t.startswith("offloading/fortran/") \
            else t.split("/")[0]
        c = by_folder.setdefault(key, [0, 0, 0])
        c[0] += 1
        c[1] += t in ours_pass
        c[2] += t in up_pass
    L.append("| folder | applicable | ours passed | upstream passed |")
    L.append("|---|---:|---:|---:|")
    for k in sorted(by_folder):
        L.append("| %s | %d | %d | %d |" % ((k,) + tuple(by_folder[k])))
    L.append("")
    # Grouped summary of ours-fails-upstream-passes.
    groups = {}
    for t in ofup:
        cause, reason = classify(t, results[t], notes)
        label = (reason.split(":", 1)[0] if t in notes else
                 "not yet investigated (%s)" %
                 results[t]["ours"].get("stage", "?"))
        groups.setdefault((cause, label), []).append(t)
    L.append("### Ours fails, upstream passes (%d)" % len(ofup))
    L.append("")
    L.append("Grouped by cause (from `scripts/conformance/notes.py` where "
             "investigated, else by the stage that failed):")
    L.append("")
    for (cause, reason), ts in sorted(groups.items(),
                                      key=lambda kv: -len(kv[1])):
        L.append("- **%s** (%s, %d): %s" % (
            md(reason), cause, len(ts), ", ".join("`%s`" % t for t in ts)))
    L.append("")
    L.append("Each test: the commands our side ran (paste into bash; `%t` "
             "is already resolved under `build-conformance/`), and the first line where the output "
             "differs from what the test expects.")
    L.append("")
    for t in ofup:
        o = results[t]["ours"]
        cause, reason = classify(t, results[t], notes)
        L.append("#### `%s`" % t)
        L.append("")
        L.append("- cause: %s — %s" % (common.CAUSES[cause], md(reason, 400)))
        L.append("- failed at: %s (%s)" % (o.get("stage", "?"),
                                            o.get("exit", "")))
        if o.get("expected") or o.get("actual"):
            L.append("- expected: `%s`" % md(o.get("expected", ""), 200))
            L.append("- actual: `%s`" % md(o.get("actual", ""), 200))
            if o.get("closest"):
                L.append("- closest line (FileCheck's guess): `%s`" %
                         md(o["closest"], 200))
        else:
            L.append("- first differing line: `%s`" % md(o.get("first", "")))
        if o.get("runtime_message"):
            L.append("- runtime said: `%s`" % md(o["runtime_message"]))
        L.append("")
        L.append("```sh")
        for c in o.get("commands", []):
            L.append(c)
        L.append("```")
        L.append("")
    L.append("### Upstream fails, ours passes (%d)" % len(upfo))
    L.append("")
    for t in upfo:
        u = results[t]["upstream"]
        L.append("- `%s`: %s: %s" % (t, u.get("stage", "?"),
                                     md(u.get("first", ""), 200)))
    L.append("")
    L.append("### Both fail (%d)" % len(both))
    L.append("")
    for t in both:
        o, u = results[t]["ours"], results[t].get("upstream", {})
        if t in notes:
            cause, reason = notes[t]
            L.append("- `%s`: %s — %s *(note)*" % (t, common.CAUSES[cause],
                                                   md(reason)))
            continue
        L.append("- `%s`: ours %s: %s; upstream %s" % (
            t, o.get("stage", "?"), md(o.get("first", ""), 160),
            u.get("stage", "?")))
    L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests", help="upstream offload/test folder (has "
                    "lit.cfg); default: the newest "
                    "<data>/llvm-toolchain-*/offload/test")
    ap.add_argument("--data", default=common.DEFAULT_DATA,
                    help="data folder (default %(default)s)")
    ap.add_argument("--folders", default=DEFAULT_FOLDERS,
                    help="comma-separated folders under offload/test "
                         "(default %(default)s; offloading/ includes "
                         "offloading/fortran/)")
    ap.add_argument("--prefix", default=os.path.join(common.REPO, "install"),
                    help="our installed prefix (default <repo>/install)")
    ap.add_argument("--lit-path", default="/usr/lib/llvm-22/utils/lit",
                    help="where LLVM's lit package is (default %(default)s)")
    ap.add_argument("--out", default=os.path.join(
        common.REPO, "build-conformance", "upstream-lit"),
        help="build folder and results.json "
             "(default <repo>/build-conformance/upstream-lit)")
    ap.add_argument("--doc", default=common.DEFAULT_DOC)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=180,
                    help="seconds per test, compile and run together "
                         "(default 180)")
    ap.add_argument("--filter", help="regex on the test path "
                    "(e.g. mapping/lambda); others keep saved results")
    ap.add_argument("--sides", default="ours,upstream")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the output of failing tests")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--worker", nargs=2, metavar=("SIDE", "TEST"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--no-doc", action="store_true")
    ap.add_argument("--extra-features", default="",
                    help="comma-separated lit features to add on both "
                         "sides, e.g. `gpu` to run upstream's GPU-gated "
                         "ompt/ tests on the CPU device")
    args = ap.parse_args()
    args.extra_features = [f for f in args.extra_features.split(",") if f]
    sys.path.insert(0, args.lit_path)
    args.tests = os.path.abspath(args.tests or find_tests_root(args.data))
    if not os.path.exists(os.path.join(args.tests, "lit.cfg")):
        raise SystemExit("no lit.cfg in %s: run fetch-upstream-lit.py or "
                         "give --tests" % args.tests)
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    src = os.path.dirname(os.path.dirname(args.tests))
    args.source_name = "`%s` (LLVM's source of the installed release)" % \
        os.path.basename(src) if "llvm-toolchain" in src else "`%s`" % src
    args.date = time.strftime("%Y-%m-%d")
    args.prefix = os.path.abspath(args.prefix)
    args.data = os.path.abspath(args.data)
    if args.worker:
        worker(args, *args.worker)
        return
    tools = side_tools(args)
    results_path = os.path.join(args.out, "results.json")
    saved = common.load_json(results_path)
    results = saved.get("results", {})
    meta = saved.get("meta", {})

    configs = {s: make_config(args, s, tools) for s in ("ours", "upstream")}
    args.features = sorted(configs["ours"][1].available_features)
    if not args.report_only:
        meta["ours"] = common.prefix_info(os.path.abspath(args.prefix))
        meta["date"] = args.date
        tests = discover(args, configs["ours"][1])
        sides = [s for s in args.sides.split(",") if s]
        jobs = [(s, t) for t in tests for s in sides]
        print("%d tests, %d jobs, -j %d; features: %s" % (
            len(tests), len(jobs), args.jobs, " ".join(args.features)),
            flush=True)
        lock = threading.Lock()
        done = [0]
        start = time.monotonic()

        def work(job):
            side, rel = job
            try:
                rec = run_test(args, side, rel)
            except Exception as e:  # a test the runner cannot handle
                rec = {"status": "UNRESOLVED", "first": repr(e),
                       "stage": "runner"}
            with lock:
                results.setdefault(rel, {})[side] = rec
                done[0] += 1
                if rec["status"] != "UNSUPPORTED" or args.verbose:
                    print("[%d/%d %4.0fs] %-8s %-11s %s %s" % (
                        done[0], len(jobs), time.monotonic() - start, side,
                        rec["status"], rel,
                        ("| " + rec.get("first", "")[:120])
                        if rec["status"] not in PASSING + ("UNSUPPORTED",)
                        else ""), flush=True)
                if args.verbose and rec.get("output"):
                    print(rec["output"], flush=True)
                if done[0] % 20 == 0:
                    common.save_json(results_path, {"results": results, "meta": meta})

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(work, jobs))
        common.save_json(results_path, {"results": results, "meta": meta})

    complete = {t: r for t, r in results.items()
                if "ours" in r and "upstream" in r}
    if not args.no_doc and complete:
        common.replace_section(args.doc, "upstream-lit",
                               report(args, complete, meta),
                               common.DOC_PREAMBLE,
                               {args.data: "<data>",
                                os.path.abspath(args.prefix): "<prefix>",
                                os.path.abspath(args.out): "<out>"})
        print("wrote", args.doc)
    app = [t for t, r in complete.items()
           if r["ours"]["status"] not in ("UNSUPPORTED", "EXCLUDED")]
    print("applicable %d: ours passed %d, upstream passed %d" % (
        len(app),
        sum(complete[t]["ours"]["status"] in PASSING for t in app),
        sum(complete[t]["upstream"]["status"] in PASSING for t in app)))


if __name__ == "__main__":
    main()
