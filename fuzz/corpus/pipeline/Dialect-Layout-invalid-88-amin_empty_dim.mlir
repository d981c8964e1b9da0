func.func @amin_empty_dim(%x: !layout.tensor<0x3xf32>) {
  %0 = layout.reduce amin %x dims [-2] keepdim : !layout.tensor<0x3xf32>
  return
}
