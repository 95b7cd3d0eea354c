#!/usr/bin/env python3
"""Build and run the OpenMP Validation & Verification suite on both sides.

Every test under <vv>/tests/<version>/ (C, C++, Fortran) is compiled,
linked and run twice: with this project's installed shims ("ours") and
with Debian's clang-22/clang++-22/flang-22 and Debian's libomptarget
("upstream"), both offloading to the CPU device
(-fopenmp-targets=x86_64-pc-linux-gnu) and run with
OMP_TARGET_OFFLOAD=MANDATORY. Compiling (-c) and linking are separate
steps, so a failure is classed as a compile error, a link error, a run
failure, a crash or a timeout.

Debian's flang cannot link a Fortran program for the CPU device (Debian
ships no device runtime, so __kmpc_target_init is undefined); for a
Fortran test that fails on our side, the runner therefore also builds it
with flang-22 -fopenmp and no offload target ("host" reference: the target
regions run as host fallback) to tell a flang-22/libomp problem from ours.

With --emulate sm_90 or --emulate gfx90a, our side alone is built for
that GPU and run on the GPU emulator (<prefix>/lib/gpu-emulator, see
docs/GPUEmulator.md): the GPU plugins and device runtime run every test,
no GPU needed. sm_90 takes the C and C++ tests (flang-22 has no
-foffload-lto, which the emulated NVIDIA image needs), gfx90a all.
Results go to <out>/results.json (default build-conformance/vv-emu-<arch>)
and a summary by status on stdout; no document is written.

Results go to <out>/results.json; docs/Conformance.md gets the section
"vv" (counts by OpenMP version and language, and every test that fails on
our side with its cause). Causes found by hand live in
scripts/conformance/notes.py (VV_NOTES).

Example:
  scripts/conformance/run-vv.py /work/vv/OpenMP_VV -j 2
  scripts/conformance/run-vv.py /work/vv/OpenMP_VV --filter 'declare_mapper'
  scripts/conformance/run-vv.py /work/vv/OpenMP_VV --report-only
  scripts/conformance/run-vv.py /work/vv/OpenMP_VV --emulate sm_90
"""

import argparse
import concurrent.futures
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

VERSIONS = ["4.5", "5.0", "5.1", "5.2", "6.0"]
OMP_VERSION_FLAG = {"5.0": "50", "5.1": "51", "5.2": "52", "6.0": "60"}
LANG_OF = {".c": "C", ".cpp": "C++", ".F90": "Fortran", ".F95": "Fortran",
           ".F03": "Fortran", ".F": "Fortran", ".FOR": "Fortran"}
LANGS = ["C", "C++", "Fortran"]
TARGET = "x86_64-pc-linux-gnu"
PASSING = ("pass", "skip")
# Tests that need the suite's helper library (the Makefile's LINK_OMPVV_LIB).
NEEDS_LIBOMPVV = {"qmcpack_target_static_lib.c"}
# The options that build for an emulated GPU (compile and link alike).
EMULATE_FLAGS = {
    "sm_90": ["--offload-arch=sm_90", "-foffload-lto",
              "-Xoffload-linker-nvptx64-nvidia-cuda", "--offload-emulate"],
    "gfx90a": ["--offload-arch=gfx90a",
               "-Xoffload-linker-amdgcn-amd-amdhsa", "--offload-emulate"],
}


def find_tests(vv, versions, pattern):
    tests = []
    for ver in versions:
        root = os.path.join(vv, "tests", ver)
        if not os.path.isdir(root):
            continue
        for dirpath, _dirs, files in os.walk(root):
            for name in sorted(files):
                ext = os.path.splitext(name)[1]
                if ext not in LANG_OF or name == "ompvv.F90":
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name),
                                      os.path.join(vv, "tests"))
                if pattern and not re.search(pattern, rel):
                    continue
                tests.append(rel)
    return sorted(tests)


def test_env(name, thread_limit):
    """The environment run_test.sh / the Makefile give a test."""
    env = dict(os.environ)
    env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
    if thread_limit:
        env["OMP_THREAD_LIMIT"] = str(thread_limit)
    stem = os.path.splitext(name)[0]
    if "_THREADS_RESERVE" in stem:
        env["OMP_THREAD_LIMIT"] = "16"
        env["OMP_THREADS_RESERVE"] = "structured(5),free_agent(2)"
    else:
        m = re.match(r"test_(.*)_env_([^.]*)$", stem)
        if m:
            env[m.group(1).upper()] = m.group(2)
    return env


def build_and_run(args, tools, side, test, old=None):
    """Compile, link and run one test on one side; return its record.

    With old (a saved record whose program was built), only run it again.
    """
    vv = args.vv
    ver = test.split("/")[0]
    name = os.path.basename(test)
    lang = LANG_OF[os.path.splitext(name)[1]]
    src = os.path.join(vv, "tests", test)
    work = os.path.join(args.out, side, test.replace(".", "_"))
    os.makedirs(work, exist_ok=True)
    if old is not None:
        rec = {k: v for k, v in old.items() if k in ("lang", "version")}
        rec["commands"] = old["commands"][:-1]
        return run_program(args, side, name, work, rec)
    for f in os.listdir(work):
        os.unlink(os.path.join(work, f))
    t = tools["upstream" if side == "host" else side]
    driver = {"C": t["cc"], "C++": t["cxx"], "Fortran": t["fc"]}[lang]
    omp = ["-fopenmp"]
    if side != "host" and args.emulate:
        omp += EMULATE_FLAGS[args.emulate]
    elif side != "host":
        omp.append("-fopenmp-targets=" + TARGET)
    if ver in OMP_VERSION_FLAG:
        omp.append("-fopenmp-version=" + OMP_VERSION_FLAG[ver])
    std = ["-std=c++11"] if lang == "C++" else []
    inc = ["-I" + os.path.join(vv, "ompvv")]
    rec = {"lang": lang, "version": ver, "commands": []}

    compiles = [(src, "test.o")]
    if name in NEEDS_LIBOMPVV:
        compiles.append((os.path.join(vv, "ompvv", "libompvv.c"),
                         "libompvv.o"))
    for source, obj in compiles:
        cmd = [driver] + omp + std + inc + ["-O3", "-c", source, "-o", obj]
        rec["commands"].append(common.quote(cmd))
        st, out, _ = common.run(cmd, work, args.compile_timeout)
        if st != 0:
            rec["status"] = ("compile-timeout" if st == "timeout"
                             else "compile-error")
            rec["output"] = common.truncate(out)
            rec["first"] = common.first_line(out, [r"error:", r"error\b"])
            return rec
    link = ([driver] + omp + ["-O3"] + [o for _s, o in compiles] +
            ["-lm"] + (t["link"] if side != "host" else []) + ["-o", "test"])
    rec["commands"].append(common.quote(link))
    st, out, _ = common.run(link, work, args.compile_timeout)
    if st != 0:
        rec["status"] = "link-timeout" if st == "timeout" else "link-error"
        rec["output"] = common.truncate(out)
        rec["first"] = common.first_line(
            out, [r"undefined reference", r"error:", r"error\b"])
        return rec
    return run_program(args, side, name, work, rec)


def run_program(args, side, name, work, rec):
    env = test_env(name, args.thread_limit)
    if side == "host":
        del env["OMP_TARGET_OFFLOAD"]
    if args.emulate:
        env["LD_LIBRARY_PATH"] = os.path.join(
            os.path.abspath(args.prefix), "lib", "gpu-emulator") + \
            (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    extra = sorted(set(env.items()) - set(os.environ.items()))
    rec["commands"].append(" ".join("%s=%s" % kv for kv in extra) +
                           " ./test")
    st, out, secs = common.run([os.path.join(work, "test")], work,
                               args.run_timeout, env=env)
    rec["seconds"] = round(secs, 2)
    rec["output"] = common.truncate(out)
    if st == 0:
        rec["status"] = "skip" if "Test skipped" in out else "pass"
    elif "Test skipped" in out:
        rec["status"] = "skip"
    elif st == "timeout":
        rec["status"] = "run-timeout"
    elif isinstance(st, int) and st < 0:
        rec["status"] = "crash"
        rec["exit"] = common.status_text(st)
    else:
        rec["status"] = "run-fail"
        rec["exit"] = common.status_text(st)
    if rec["status"] not in PASSING:
        rec["first"] = common.first_line(
            out, [r"(?i)error", r"(?i)fail", r"Assert", r"(?i)fault", r"(?i)abort"]) or \
            common.first_line(out, [r"\S"]) or rec.get("exit", "")
    return rec


def classify(test, res, notes):
    """(cause key, reason) for a test that fails on our side."""
    if test in notes:
        return notes[test]
    ours = res["ours"]
    up = res.get("upstream", {})
    host = res.get("host")
    o, u = ours["status"], up.get("status", "")
    first = ours.get("first", "")
    if o == "compile-error":
        if u == "compile-error":
            return "frontend", "both fail to compile: " + first
        return "ours?", "compiles upstream, not here: " + first
    if o == "compile-timeout" and u == "compile-timeout":
        return "frontend", ("the frontend does not finish compiling it "
                            "within the time limit, on both sides")
    if o in ("compile-timeout", "link-timeout"):
        return ("both?" if u.endswith("timeout") else "ours?",
                "%s here (upstream: %s)" % (o, u))
    if u in PASSING:
        return "ours?", "upstream passes; here %s: %s" % (o, first)
    if u == "link-error" and ours["lang"] == "Fortran" and host:
        if o == "link-error":
            return "ours?", "link error (Debian's flang cannot link for " \
                "the CPU device, so no upstream comparison): " + first
        if host["status"] in PASSING:
            return "ours?", ("flang-22 host-fallback build passes, the "
                             "offload build fails here (ours, or flang-22's "
                             "device code); %s: %s" % (o, first))
        return "both?", ("flang-22 host-fallback build also fails (%s: %s); "
                         "here %s: %s" % (host["status"], host.get("first", ""),
                                          o, first))
    return "both?", "upstream %s too (%s); here %s: %s" % (
        u, up.get("first", ""), o, first)


def report(args, results, meta):
    notes = common.load_notes("VV_NOTES")
    tests = sorted(results)
    lines = ["## 1. OpenMP Validation & Verification suite", ""]
    lines.append(
        "Source: the OpenMP_VV checkout at commit `%s`; every test under "
        "`tests/<version>/`. Flags (the suite's own for clang): "
        "`-fopenmp -fopenmp-targets=%s -fopenmp-version=NN -O3 "
        "-I<vv>/ompvv` (`-std=c++11` for C++), compiled (`-c`) and linked "
        "in two steps, run with `OMP_TARGET_OFFLOAD=MANDATORY` and the "
        "suite's `_env_`/`THREADS_RESERVE` variables, %s; limits %d s per "
        "compile or link, %d s per run. A test passes when it exits 0 "
        "(\"skipped\" counts as passed, as in the suite)." %
        (args.vv_commit, TARGET,
         ("`OMP_THREAD_LIMIT=%d`" % args.thread_limit) if args.thread_limit
         else "`OMP_THREAD_LIMIT` unset (the suite's `run_test.sh` sets it "
         "to the CPU count; on this 2-CPU machine that makes every "
         "`nowait`/`depend` target test hang in libomp, on both sides)",
         args.compile_timeout, args.run_timeout))
    lines.append("")
    lines.append("Generated by `scripts/conformance/run-vv.py`; run on %s "
                 "with ours = %s." % (meta.get("date", "?"),
                                      meta.get("ours", "?")))
    lines.append("")
    # Counts table.
    lines.append("| OpenMP | language | tests | ours passed | upstream passed |")
    lines.append("|---|---|---:|---:|---:|")
    totals = {}
    for ver in VERSIONS:
        for lang in LANGS:
            sel = [t for t in tests if results[t]["ours"]["version"] == ver
                   and results[t]["ours"]["lang"] == lang]
            if not sel:
                continue
            n = len(sel)
            o = sum(results[t]["ours"]["status"] in PASSING for t in sel)
            u = sum(results[t].get("upstream", {}).get("status") in PASSING
                    for t in sel)
            # Fortran is totalled on its own: Debian's side cannot link
            # Fortran offload programs, so a grand total would mix a
            # comparison with a one-sided count.
            for key in (lang, "C and C++") if lang != "Fortran" else (lang,):
                tt = totals.setdefault(key, [0, 0, 0])
                tt[0] += n
                tt[1] += o
                tt[2] += u
            lines.append("| %s | %s | %d | %d | %d |" % (ver, lang, n, o, u))
    for key in LANGS + ["C and C++"]:
        if key in totals:
            n, o, u = totals[key]
            lines.append("| **all** | **%s** | **%d** | **%d** | **%d** |" %
                         (key, n, o, u))
    lines.append("")
    # Status breakdown.
    lines.append("Outcome by kind (tests):")
    lines.append("")
    kinds = ["pass", "skip", "compile-error", "compile-timeout", "link-error",
             "link-timeout", "run-fail", "crash", "run-timeout"]
    lines.append("| side | language | " + " | ".join(kinds) + " |")
    lines.append("|---|---|" + "---:|" * len(kinds))
    for side in ("ours", "upstream"):
        for lang in LANGS:
            sel = [results[t].get(side, {}).get("status") for t in tests
                   if results[t]["ours"]["lang"] == lang]
            lines.append("| %s | %s | " % (side, lang) +
                         " | ".join(str(sel.count(k)) for k in kinds) + " |")
    lines.append("")
    fortran_up = [t for t in tests if results[t]["ours"]["lang"] == "Fortran"]
    fortran_link = [t for t in fortran_up
                    if results[t].get("upstream", {}).get("status") ==
                    "link-error"]
    if fortran_link:
        lines.append(
            "Upstream Fortran: %d of %d tests fail to link, because Debian "
            "ships no device runtime for the CPU device and flang-22 emits "
            "GPU-style kernels for it (`undefined reference to "
            "`__kmpc_target_init``). For Fortran tests that fail on our "
            "side the runner also builds the test with `flang-22 -fopenmp` "
            "and no offload target (\"host reference\": target regions run "
            "as host fallback) to separate flang-22/libomp problems from "
            "ours." % (len(fortran_link), len(fortran_up)))
        lines.append("")
    # Failures on our side, grouped by cause.
    failing = [t for t in tests if results[t]["ours"]["status"] not in
               PASSING]
    groups = {}
    for t in failing:
        cause, reason = classify(t, results[t], notes)
        groups.setdefault(cause, []).append((t, reason))
    lines.append("### Tests that fail on our side (%d), by cause" %
                 len(failing))
    lines.append("")
    lines.append(
        "Automatic classes: a compile error on both sides is the "
        "frontend's; a failure where upstream (or, for Fortran, the "
        "flang-22 host reference) passes is suspected ours (`ours?`); a "
        "failure on both sides is `both?` until investigated. Entries "
        "marked *(note)* come from `scripts/conformance/notes.py`.")
    lines.append("")
    for cause in common.CAUSES:
        if cause not in groups:
            continue
        items = groups[cause]
        lines.append("#### %s (%d)" % (common.CAUSES[cause], len(items)))
        lines.append("")
        lines.append("| test | ours | upstream | reason |")
        lines.append("|---|---|---|---|")
        for t, reason in items:
            r = results[t]
            up = r.get("upstream", {}).get("status", "-")
            if r.get("host"):
                up += " (host ref: %s)" % r["host"]["status"]
            mark = " *(note)*" if t in notes else ""
            lines.append("| `%s` | %s | %s | %s%s |" % (
                t, r["ours"]["status"], up, md(reason), mark))
        lines.append("")
    # How to reproduce the failures that are (or may be) ours.
    mine = [t for c in ("ours", "ours?") for t, _r in groups.get(c, [])]
    if mine:
        lines.append("### Reproducing the failures that are ours or "
                     "suspected ours")
        lines.append("")
        lines.append("Commands as the runner ran them, in the test's build "
                     "folder (`build-conformance/vv/ours/<test>/`):")
        lines.append("")
        for t in mine:
            r = results[t]["ours"]
            lines.append("- `%s` (%s): `%s`" % (t, r["status"],
                                                 md(r.get("first", ""))))
            lines.append("")
            lines.append("  ```sh")
            for c in r.get("commands", []):
                lines.append("  " + c)
            lines.append("  ```")
            lines.append("")
    # Tests that pass here and fail upstream.
    better = [t for t in tests if results[t]["ours"]["status"] in PASSING and
              results[t].get("upstream", {}).get("status") not in PASSING]
    better_nf = [t for t in better if results[t]["ours"]["lang"] != "Fortran"]
    lines.append("### Tests that pass here and fail upstream (%d; %d of them "
                 "C/C++)" % (len(better), len(better_nf)))
    lines.append("")
    lines.append("Fortran tests are left out of this list when upstream "
                 "only failed to link (see above).")
    lines.append("")
    for t in better:
        up = results[t]["upstream"]
        if up["lang"] == "Fortran" and up["status"] == "link-error":
            continue
        lines.append("- `%s`: upstream %s: %s" % (
            t, up["status"], md(up.get("first", ""))))
    lines.append("")
    return "\n".join(lines)


def md(text):
    return text.replace("|", "\\|").replace("`", "'")[:300]


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vv", help="the OpenMP_VV checkout (has tests/ and ompvv/)")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="builds/runs at once (default 2)")
    ap.add_argument("--prefix", default=os.path.join(common.REPO, "install"),
                    help="our installed prefix (default: <repo>/install)")
    ap.add_argument("--out", default=os.path.join(common.REPO,
                                                  "build-conformance", "vv"),
                    help="build folder and results.json "
                         "(default: <repo>/build-conformance/vv)")
    ap.add_argument("--data", default=common.DEFAULT_DATA,
                    help="folder for the libomptarget.so link to Debian's "
                         "runtime (default %(default)s)")
    ap.add_argument("--doc", default=common.DEFAULT_DOC,
                    help="document to write (default docs/Conformance.md)")
    ap.add_argument("--versions", default=",".join(VERSIONS),
                    help="comma-separated OpenMP versions (default: all)")
    ap.add_argument("--filter", help="regex on <version>/<area>/<file>; "
                    "only matching tests are (re)run, the others keep their "
                    "saved results")
    ap.add_argument("--sides", default="ours,upstream",
                    help="sides to (re)run (default ours,upstream)")
    ap.add_argument("--compile-timeout", type=int, default=120,
                    help="seconds per compile or link (default 120)")
    ap.add_argument("--run-timeout", type=int, default=30,
                    help="seconds per run (default 30)")
    ap.add_argument("--thread-limit", type=int, default=0,
                    help="OMP_THREAD_LIMIT for the runs (the suite's "
                         "run_test.sh uses the CPU count; with 2 CPUs that "
                         "deadlocks the nowait/depend tests in libomp on "
                         "both sides, so the default 0 leaves it unset)")
    ap.add_argument("--rerun-programs", action="store_true",
                    help="reuse saved builds: run the programs already "
                         "built again, keep saved build failures, build "
                         "and run the tests not yet tried")
    ap.add_argument("--no-host-reference", action="store_true",
                    help="skip the flang-22 host-fallback builds")
    ap.add_argument("--report-only", action="store_true",
                    help="write the document from the saved results")
    ap.add_argument("--no-doc", action="store_true",
                    help="do not write the document")
    ap.add_argument("--emulate", choices=sorted(EMULATE_FLAGS),
                    help="build ours for this GPU and run it on the GPU "
                         "emulator (our side only, no document)")
    args = ap.parse_args()
    args.vv = os.path.abspath(args.vv)
    if args.emulate:
        args.sides = "ours"
        args.no_host_reference = True
        args.no_doc = True
        if args.out == ap.get_default("out"):
            args.out = os.path.join(os.path.dirname(args.out),
                                    "vv-emu-" + args.emulate)
    os.makedirs(args.out, exist_ok=True)
    results_path = os.path.join(args.out, "results.json")
    saved = common.load_json(results_path)
    results = saved.get("results", {})
    meta = saved.get("meta", {})
    st, out, _ = common.run(["git", "-C", args.vv, "rev-parse", "--short=12",
                             "HEAD"], args.vv, 30)
    args.vv_commit = out.strip() if st == 0 else "unknown"
    args.date = time.strftime("%Y-%m-%d")
    tools = common.toolchains(os.path.abspath(args.prefix), args.data)

    if not args.report_only:
        meta["ours"] = common.prefix_info(os.path.abspath(args.prefix))
        meta["date"] = args.date
        versions = [v for v in args.versions.split(",") if v]
        tests = find_tests(args.vv, versions, args.filter)
        if args.emulate == "sm_90":
            tests = [t for t in tests
                     if LANG_OF[os.path.splitext(t)[1]] != "Fortran"]
        sides = [s for s in args.sides.split(",") if s]
        jobs = [(side, t) for t in tests for side in sides]
        print("%d tests, %d jobs, -j %d" % (len(tests), len(jobs), args.jobs),
              flush=True)
        lock = threading.Lock()
        done = [0]
        started = time.monotonic()

        run_kinds = PASSING + ("run-fail", "crash", "run-timeout")

        def work(job):
            side, test = job
            old = results.get(test, {}).get(side)
            if args.rerun_programs and old and \
                    old.get("status") not in run_kinds:
                rec = old          # a build failure: nothing to run
            else:
                if not (args.rerun_programs and old):
                    old = None
                rec = build_and_run(args, tools, side, test, old)
            with lock:
                results.setdefault(test, {})[side] = rec
                results[test].pop("host", None) if side == "ours" else None
                done[0] += 1
                print("[%d/%d %4.0fs] %-8s %-14s %s" % (
                    done[0], len(jobs), time.monotonic() - started, side,
                    rec["status"], test), flush=True)
                if done[0] % 20 == 0:
                    common.save_json(results_path, {"results": results, "meta": meta})

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(work, jobs))
        # Host reference for Fortran tests failing here that upstream
        # could not link.
        if not args.no_host_reference:
            ref = [t for t in tests if results[t]["ours"]["lang"] == "Fortran"
                   and results[t]["ours"]["status"] not in PASSING
                   and results[t].get("upstream", {}).get("status") ==
                   "link-error"]
            print("host reference: %d Fortran tests" % len(ref), flush=True)
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                for t, rec in zip(ref, pool.map(
                        lambda t: build_and_run(args, tools, "host", t), ref)):
                    results[t]["host"] = rec
                    print("host     %-14s %s" % (rec["status"], t), flush=True)
        common.save_json(results_path, {"results": results, "meta": meta})

    complete = {t: r for t, r in results.items() if "ours" in r}
    if not args.no_doc and complete:
        common.replace_section(args.doc, "vv", report(args, complete, meta),
                               common.DOC_PREAMBLE,
                               {args.vv: "<OpenMP_VV>", args.data: "<data>"})
        print("wrote", args.doc)
    # Summary on stdout.
    o = sum(r["ours"]["status"] in PASSING for r in complete.values())
    u = sum(r.get("upstream", {}).get("status") in PASSING
            for r in complete.values())
    print("tests %d: ours passed %d, upstream passed %d" % (len(complete), o, u))
    if args.emulate:
        by_status = {}
        for r in complete.values():
            by_status[r["ours"]["status"]] = \
                by_status.get(r["ours"]["status"], 0) + 1
        print("on the emulated %s: %s" % (args.emulate, ", ".join(
            "%s %d" % kv for kv in sorted(by_status.items()))))


if __name__ == "__main__":
    main()
