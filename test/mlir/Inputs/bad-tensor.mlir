module {
  func.func @takes_tensor(%t: tensor<4xf32>) {
    return
  }
}
