func.func @element_types(%a: !layout.tensor<2xi1>, %b: !layout.tensor<2xi8>,
                         %c: !layout.tensor<2xi16>, %d: !layout.tensor<2xi32>,
                         %e: !layout.tensor<2xi64>, %f: !layout.tensor<2xui8>,
                         %g: !layout.tensor<2xf16>, %h: !layout.tensor<2xbf16>,
                         %i: !layout.tensor<2xf32>, %j: !layout.tensor<2xf64>) {
  return
}

func.func @storage_element_types(%a: !layout.storage<4xi1>, %b: !layout.storage<4xi8>,
                                 %c: !layout.storage<4xi16>, %d: !layout.storage<4xi32>,
                                 %e: !layout.storage<4xi64>, %f: !layout.storage<4xui8>,
                                 %g: !layout.storage<4xf16>, %h: !layout.storage<4xbf16>,
                                 %i: !layout.storage<4xf32>, %j: !layout.storage<4xf64>) {
  return
}

func.func @element_type_flows(%s: !layout.storage<6xui8>, %t: !layout.tensor<2x3xbf16>) {
  %a = layout.as_strided %s [2, 3] strides [3, 1] offset 0 : !layout.storage<6xui8>
  %b = layout.transpose %t 0, 1 : !layout.tensor<2x3xbf16>
  return
}


func.func @storage(%a: !layout.storage<24xf32>, %b: !layout.storage<?xf16>, %c: !layout.storage<0xi8>) {
  return
}


func.func @rank0(%a: !layout.tensor<f32>, %b: !layout.tensor<i64, strided<[], offset: 5>>)
    -> !layout.tensor<f32, strided<[], offset: 0>> {
  return %a : !layout.tensor<f32, strided<[]>>
}

func.func @size_zero(%a: !layout.tensor<2x0x3xf32>, %b: !layout.tensor<2x0x3xf32, strided<[3, 3, 1]>>,
                     %c: !layout.tensor<2x0x3xf32, strided<[0, 3, 1]>>, %d: !layout.tensor<0xf32>,
                     %e: !layout.tensor<0x4xf32, strided<[4, 1], offset: 7>>) {
  return
}


func.func @dynamic(%a: !layout.tensor<?x3xf32>, %b: !layout.tensor<?x3xf32, strided<[3, 1], offset: 0>>,
                   %c: !layout.tensor<3x?xf32, strided<[?, 1]>>,
                   %d: !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>,
                   %e: !layout.tensor<4xf32, strided<[1], offset: ?>>,
                   %f: !layout.tensor<?x?xf32, strided<[?, 1]>>,
                   %g: !layout.tensor<?x?xf32, strided<[1, ?]>>) {
  return
}


func.func @same_type(%x: !layout.tensor<3x4xf32, strided<[4, 1], offset: 0>>, %y: !layout.tensor<3x4xf32, strided<[4, 1]>>)
    -> (!layout.tensor<3x4xf32>, !layout.tensor<3x4xf32, strided<[4, 1]>>) {
  %c = layout.contiguous %x : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[4, 1], offset: 0>>
  return %c, %y : !layout.tensor<3x4xf32, strided<[4, 1], offset: 0>>, !layout.tensor<3x4xf32>
}

func.func @same_type_strided(%x: !layout.tensor<4x3xf32, strided<[1, 4], offset: 0>>) -> !layout.tensor<4x3xf32, strided<[1, 4]>> {
  return %x : !layout.tensor<4x3xf32, strided<[1, 4]>>
}

func.func @size_one_strides(%a: !layout.tensor<1x4xf32, strided<[4, 1]>>, %b: !layout.tensor<1x4xf32, strided<[1, 1]>>) {
  return
}


func.func @negative_strides(%x: !layout.tensor<3x4xf32>, %n: !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>,
                            %z: !layout.tensor<3x4xf32, strided<[0, 1]>>) -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>> {
  %f = layout.flip %x [0] : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
  return %f : !layout.tensor<3x4xf32, strided<[-4, 1], offset: 8>>
}


func.func @explicit_result_type(%x: !layout.tensor<3x4xf32>) {
  %a = layout.view %x [4, 3] : !layout.tensor<3x4xf32> -> !layout.tensor<4x3xf32, strided<[3, 1], offset: 0>>
  %b = layout.select %x dim 0 index 2 : !layout.tensor<3x4xf32> -> !layout.tensor<4xf32, strided<[1], offset: 8>>
  %c = layout.to %x i8 : !layout.tensor<3x4xf32> -> !layout.tensor<3x4xi8>
  return
}
