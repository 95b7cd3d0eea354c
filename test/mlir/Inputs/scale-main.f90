! Fortran host program for scale-llvm-dialect.mlir: calls the MLIR function
! through its C interface.
program main
  use iso_c_binding
  implicit none
  interface
    subroutine scale(p, n) bind(c, name="scale")
      import :: c_int
      integer(c_int) :: p(*)
      integer(c_int), value :: n
    end subroutine
  end interface
  integer(c_int) :: v(100)
  integer :: i, bad
  v = [(i - 1, i = 1, 100)]
  call scale(v, 100)
  bad = count(v /= [(2 * (i - 1), i = 1, 100)])
  print '(a,i0,a,i0)', 'fortran: bad=', bad, ' v(100)=', v(100)
end program
