# hang_limit SECONDS: the GPU check kit's hang guard for one program, SECONDS
# stretched for a slow or shared machine: times OFFLOAD_TEST_TIMEOUT_SCALE
# (default 1) and the load per core now (at least 1), rounded up. Sourced
# by run.sh and bench/run.sh; the build scripts copy it beside each, so the
# kit stays self-contained.
hang_limit() {
  awk -v b="$1" -v s="${OFFLOAD_TEST_TIMEOUT_SCALE:-1}" \
    -v c="$(nproc 2>/dev/null || echo 1)" \
    -v l="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)" 'BEGIN {
    f = l / (c > 0 ? c : 1); f = f > 1 ? f : 1; if (s + 0 <= 0) s = 1
    n = b * s * f; printf "%d", n == int(n) ? n : int(n) + 1 }'
}
