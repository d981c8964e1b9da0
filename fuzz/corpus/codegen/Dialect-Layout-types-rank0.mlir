func.func @rank0(%a: !layout.tensor<f32>, %b: !layout.tensor<i64, strided<[], offset: 5>>)
