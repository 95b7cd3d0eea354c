! A character literal used in a target region: Flang makes it a constant
! global (_QQclX...) of the device code, with default visibility.
module text
  implicit none
contains
  integer function vowels(s)
    !$omp declare target
    character(*), intent(in) :: s
    integer :: i
    vowels = 0
    do i = 1, len(s)
      select case (ichar(s(i:i)))
      case (97, 101, 105, 111, 117)
        vowels = vowels + 1
      end select
    end do
  end function
end module

program p
  use text
  implicit none
  integer :: n
  n = 0
  !$omp target map(tofrom: n)
  n = vowels('offloading to a gpu')
  !$omp end target
  print '(a,i0)', 'vowels=', n
end program
