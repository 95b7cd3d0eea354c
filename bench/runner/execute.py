"""Running a benchmark program on one side's runtime and reading its figures."""

import os
import signal
import subprocess

# Variables that change what libomptarget does; a benchmark must not inherit
# them from whoever starts it, or the two sides would run differently.
_STRIPPED_PREFIXES = ("LIBOMPTARGET_", "OMP_", "KMP_", "LD_LIBRARY_PATH",
                      "OFFLOAD_WRAPPER_",
                      "LD_PRELOAD")


class RunFailure(Exception):
    """The program did not produce a trustworthy figure; str() says why."""


def clean_environment(extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(_STRIPPED_PREFIXES)}
    env.update(extra or {})
    return env


def _describe_exit(code):
    if code < 0:
        try:
            return "crashed (%s)" % signal.Signals(-code).name
        except ValueError:
            return "killed by signal %d" % -code
    return "exit code %d" % code


def run_figures(argv, runtime_dir, expected_runtime, timeout,
                extra_env=None):
    """Runs `argv` with `runtime_dir` first on LD_LIBRARY_PATH (it may name
    several folders) and `extra_env` set; returns {name: value} from its
    RESULT lines. Raises RunFailure when it fails, prints no result, or ran
    on another libomptarget than `expected_runtime`.
    """
    env = clean_environment(dict(extra_env or {},
                                 LD_LIBRARY_PATH=runtime_dir))
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RunFailure("timed out after %d s" % timeout)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
        raise RunFailure(_describe_exit(proc.returncode) +
                         (": " + tail[0][:160] if tail else ""))
    results, loaded = {}, None
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "RESULT":
            try:
                results[parts[1]] = float(parts[2])
            except ValueError:
                raise RunFailure("unreadable result line: " + line)
        elif len(parts) == 2 and parts[0] == "RUNTIME":
            loaded = parts[1]
    if loaded is None or not results:
        raise RunFailure("printed no RESULT/RUNTIME lines")
    if os.path.realpath(loaded) != os.path.realpath(expected_runtime):
        raise RunFailure("ran on %s instead of %s" % (loaded, expected_runtime))
    return results
