func.func @view_rank0(%s: !layout.tensor<f32>, %x: !layout.tensor<1x1xf32>) -> (!layout.tensor<1xf32>, !layout.tensor<f32>) {
  %a = layout.view %s [1] : !layout.tensor<f32>
  %b = layout.view %x [] : !layout.tensor<1x1xf32>
  return %a, %b : !layout.tensor<1xf32>, !layout.tensor<f32>
}
