func.func @tensor_negative_size(%x: !layout.tensor<-1x4xf32>) {
  return
}
