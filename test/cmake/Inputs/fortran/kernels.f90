! Offload kernels in a module, so the build also needs the module to be
! compiled before the program that uses it.
module kernels
  implicit none
contains
  ! y(i) = a * x(i) + y(i) on the default device; returns the sum of y.
  integer(8) function axpy_sum(a, x, y, n) result(total)
    integer, intent(in) :: n
    integer(8), intent(in) :: a, x(n)
    integer(8), intent(inout) :: y(n)
    integer :: i
    total = 0
    !$omp target teams distribute parallel do map(to: x) map(tofrom: y) &
    !$omp   reduction(+: total)
    do i = 1, n
      y(i) = a * x(i) + y(i)
      total = total + y(i)
    end do
  end function
end module
