#!/bin/sh
# ptxas as kernel_resources.py runs it: the CUDA toolkit's ptxas with -v
# added, its report appended to $KR_PTXAS_LOG. Spill stores and loads are
# only in ptxas's report (the cubin does not record them), and ptxas runs
# inside clang (default flow) or inside the linker wrapper (-foffload-lto),
# where no option reaches it; so the run points both at a CUDA folder whose
# bin/ptxas is this script (--cuda-path=<that folder>).
real=${KR_REAL_PTXAS:?KR_REAL_PTXAS names the real ptxas}
log=${KR_PTXAS_LOG:-/dev/null}
tmp=$(mktemp) || exit 1
"$real" "$@" -v >"$tmp" 2>&1
rc=$?
cat "$tmp" >>"$log"
# A failing ptxas must still say why where its caller shows errors.
[ $rc -ne 0 ] && cat "$tmp" >&2
rm -f "$tmp"
exit $rc
