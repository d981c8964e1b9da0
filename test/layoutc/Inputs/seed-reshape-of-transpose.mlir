// Seed 000: tt.reshape(-1) works, copying under the hood (torch: new
// data_ptr, strides (1,)). Seed 002: "reshape can copy the original data".
func.func @reshape_of_transpose(%t: !layout.tensor<3x4xi64>) -> (!layout.tensor<4x3xi64, strided<[1, 4]>>, !layout.tensor<12xi64>) {
  %tt = layout.transpose %t 0, 1 : !layout.tensor<3x4xi64>
  %r = layout.reshape %tt [-1] : !layout.tensor<4x3xi64, strided<[1, 4]>>
  return %tt, %r : !layout.tensor<4x3xi64, strided<[1, 4]>>, !layout.tensor<12xi64>
}
