#!/usr/bin/env bash
# hang-guard.sh SECONDS COMMAND [ARG...]
#
# Runs COMMAND (stdin, stdout and stderr passed through) and returns its
# status. It only guards against a hang: SECONDS is many times what the
# command normally takes, and is stretched for a slow or shared machine
# before it applies:
#
#   limit = SECONDS x OFFLOAD_TEST_TIMEOUT_SCALE (default 1)
#                   x the load per core when the command starts (at least 1)
#
# When the limit passes, COMMAND is killed (SIGKILL), the guard says so on
# stderr, naming the command and the limit, and returns 137. A COMMAND that
# dies of a signal by itself makes the guard die of the same signal. The lit
# substitutions %run, %ours-run, %upstream-run, %emu-run, %emu-build,
# %emu-build-amd, %cpu-launch, %mpirun and %hang-guard use it
# (test/lit.cfg.py, docs/Testing.md).
set -u

# All in one function, read whole before it runs: a script edited while
# tests use it would otherwise be read on from where each run stopped.
main() {
  if [ $# -lt 2 ]; then
    echo "usage: hang-guard.sh SECONDS COMMAND [ARG...]" >&2
    exit 2
  fi
  base=$1
  shift

  # The scale: the user's factor times the load per core, rounded up, so a
  # machine running twice as much as it has cores gets twice the time.
  scale=${OFFLOAD_TEST_TIMEOUT_SCALE:-1}
  cores=$(nproc 2>/dev/null || echo 1)
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
  limit=$(awk -v b="$base" -v s="$scale" -v l="$load" -v c="$cores" 'BEGIN {
    f = l / (c > 0 ? c : 1); f = f > 1 ? f : 1
    if (s + 0 <= 0) s = 1
    n = b * s * f; printf "%d", n == int(n) ? n : int(n) + 1 }')

  start=$SECONDS
  # In the background (stdin given explicitly, as a background job would get
  # /dev/null), reaped with wait's stderr silenced: bash's own "Killed" line
  # would only repeat the report below, less clearly.
  timeout --signal=KILL "$limit" "$@" <&0 &
  pid=$!
  # Whoever stops the guard stops the command too.
  trap 'kill -TERM "$pid" 2>/dev/null; exit 143' TERM INT HUP
  wait "$pid" 2>/dev/null
  rc=$?
  if [ $rc = 137 ] && [ $((SECONDS - start)) -ge "$limit" ]; then
    echo "hang guard fired after $limit s: killed '$*' (a hang: the guard is" \
      "$base s x OFFLOAD_TEST_TIMEOUT_SCALE=$scale x load per core" \
      "$load/$cores, many times the normal duration)" >&2
    exit $rc
  fi
  # A command that died of a signal (timeout passes the signal on to itself):
  # the guard dies of the same one, so `not --crash` and lit still see a crash,
  # not an exit status.
  if [ $rc -gt 128 ] && [ $rc -lt 160 ]; then
    trap - TERM INT HUP
    sig=$((rc - 128))
    trap - "$sig" 2>/dev/null
    kill -s "$sig" $$
  fi
  exit $rc
}

main "$@"
