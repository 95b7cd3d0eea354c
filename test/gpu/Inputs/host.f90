program host
end program
