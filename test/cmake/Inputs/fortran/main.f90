! Prints what the device computed; the test compares it with exact values.
program main
  use omp_lib
  use kernels
  implicit none
  integer, parameter :: n = 10000
  integer(8) :: x(n), y(n), total
  integer :: i
  logical :: on_device
  do i = 1, n
    x(i) = i
    y(i) = 1
  end do
  total = axpy_sum(2_8, x, y, n)
  on_device = .false.
  !$omp target map(from: on_device)
  on_device = .not. omp_is_initial_device()
  !$omp end target
  ! y(i) = 2 * i + 1, so the total is n * (n + 1) + n.
  print '(a,i0,a,l1,a,i0,a,i0,a,i0)', 'devices=', omp_get_num_devices(), &
    ' on_device=', on_device, ' total=', total, ' y(1)=', y(1), &
    ' y(10000)=', y(n)
  if (total /= int(n, 8) * (n + 1) + n) stop 1
end program
