func.func @builtin_tensor_operand(%x: tensor<3x4xf32>) {
  %0 = layout.transpose %x 0, 1 : tensor<3x4xf32>
  return
}
