# For each long record of fortran-long-statements.f90 (a line starting with
# `thread T` or `many`), prints its label, how many numbers follow and
# whether the k-th of them is k * T (T = 1 for `many`).
$1 == "thread" { t = $2; first = 3 }
$1 == "many" { t = 1; first = 2 }
$1 == "thread" || $1 == "many" {
  ok = 1
  for (k = first; k <= NF; ++k)
    if ($k != (k - first + 1) * t)
      ok = 0
  label = $1 == "thread" ? $1 " " t : $1
  print label, NF - first + 1, ok ? "in order" : "out of order"
}
