module {
  func.func @f(%p: !llvm.ptr) {
    %c = arith.constant 1 : i32
    omp.target {
      %d = arith.addi %c, %c : i32
      omp.terminator
    }
    return
  }
}
