func.func @amin_inner_f64(%x: !layout.tensor<40x75xf64>) -> !layout.tensor<40xf64> {
  %r = layout.reduce amin %x dims [1] : !layout.tensor<40x75xf64>
  return %r : !layout.tensor<40xf64>
}
