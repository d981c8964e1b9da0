func.func @amin_inner(%x: !layout.tensor<40x75xf32>) -> !layout.tensor<40xf32> {
  %r = layout.reduce amin %x dims [1] : !layout.tensor<40x75xf32>
  return %r : !layout.tensor<40xf32>
}
