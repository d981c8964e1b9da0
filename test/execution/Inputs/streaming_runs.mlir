// Copies of contiguous runs that do not start on line boundaries, large
// enough (over 32 MiB of traffic) for non-temporal stores, which join the
// runs (joinsRuns); checked element by element by streaming_runs.c.

// P6 at odd extents: runs of 129 floats, the outer loops walked in source
// order, the other way round from the destination's.
func.func @kept(%x: !layout.tensor<511x255x129xf32>) -> !layout.tensor<255x511x129xf32> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<511x255x129xf32>
  %c = layout.contiguous %v : !layout.tensor<255x511x129xf32, strided<[129, 32895, 1]>>
  return %c : !layout.tensor<255x511x129xf32>
}

// Three outer loops, reversed: the previous run borrows across two loops.
func.func @reversed(%x: !layout.tensor<41x37x29x97xi32>) -> !layout.tensor<29x37x41x97xi32> {
  %v = layout.permute %x [2, 1, 0, 3] : !layout.tensor<41x37x29x97xi32>
  %c = layout.contiguous %v : !layout.tensor<29x37x41x97xi32, strided<[97, 2813, 104081, 1]>>
  return %c : !layout.tensor<29x37x41x97xi32>
}

// A slice: rows of 513 of 515 floats, one outer loop.
func.func @sliced(%x: !layout.tensor<16400x515xf32>) -> !layout.tensor<16400x513xf32> {
  %s = layout.slice %x dim 1 [1 : 514] : !layout.tensor<16400x515xf32>
  %c = layout.contiguous %s : !layout.tensor<16400x513xf32, strided<[515, 1], offset: 1>>
  return %c : !layout.tensor<16400x513xf32>
}

// Runs of 17 floats: every line but a few joins two runs.
func.func @runs17(%x: !layout.tensor<500000x19xf32>) -> !layout.tensor<500000x17xf32> {
  %s = layout.slice %x dim 1 [2 : 19] : !layout.tensor<500000x19xf32>
  %c = layout.contiguous %s : !layout.tensor<500000x17xf32, strided<[19, 1], offset: 2>>
  return %c : !layout.tensor<500000x17xf32>
}

// f64 runs of 65 elements.
func.func @f64(%x: !layout.tensor<255x257x65xf64>) -> !layout.tensor<257x255x65xf64> {
  %v = layout.permute %x [1, 0, 2] : !layout.tensor<255x257x65xf64>
  %c = layout.contiguous %v : !layout.tensor<257x255x65xf64, strided<[65, 16705, 1]>>
  return %c : !layout.tensor<257x255x65xf64>
}

// A reversed outer loop (negative source stride).
func.func @flipped(%x: !layout.tensor<16400x520xf32>) -> !layout.tensor<16400x520xf32> {
  %f = layout.flip %x [0] : !layout.tensor<16400x520xf32>
  %c = layout.contiguous %f : !layout.tensor<16400x520xf32, strided<[-520, 1], offset: 8527480>>
  return %c : !layout.tensor<16400x520xf32>
}

// A broadcast row of 300 floats (stride-0 outer loop).
func.func @broadcast(%x: !layout.tensor<1x300xf32>) -> !layout.tensor<16384x300xf32> {
  %e = layout.expand %x [16384, -1] : !layout.tensor<1x300xf32>
  %c = layout.contiguous %e : !layout.tensor<16384x300xf32, strided<[0, 1]>>
  return %c : !layout.tensor<16384x300xf32>
}

// De-interleaving gathers: every second element of rows of 8203 floats
// (rows not joinable: 8203 is odd), of one loop (2048 rows of 8192, the
// shape of G1), every third element, and f64. With AVX-512
// (streaming-runs-avx512.test) each vector is one whole destination line.
func.func @every2(%x: !layout.tensor<1100x8203xf32>) -> !layout.tensor<1100x4102xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<1100x8203xf32>
  %c = layout.contiguous %v : !layout.tensor<1100x4102xf32, strided<[8203, 2]>>
  return %c : !layout.tensor<1100x4102xf32>
}

func.func @every2_flat(%x: !layout.tensor<2048x8192xf32>) -> !layout.tensor<2048x4096xf32> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<2048x8192xf32>
  %c = layout.contiguous %v : !layout.tensor<2048x4096xf32, strided<[8192, 2]>>
  return %c : !layout.tensor<2048x4096xf32>
}

func.func @every3(%x: !layout.tensor<1100x12301xf32>) -> !layout.tensor<1100x4101xf32> {
  %v = layout.slice %x dim 1 [: : 3] : !layout.tensor<1100x12301xf32>
  %c = layout.contiguous %v : !layout.tensor<1100x4101xf32, strided<[12301, 3]>>
  return %c : !layout.tensor<1100x4101xf32>
}

func.func @every2_f64(%x: !layout.tensor<1100x4099xf64>) -> !layout.tensor<1100x2050xf64> {
  %v = layout.slice %x dim 1 [: : 2] : !layout.tensor<1100x4099xf64>
  %c = layout.contiguous %v : !layout.tensor<1100x2050xf64, strided<[4099, 2]>>
  return %c : !layout.tensor<1100x2050xf64>
}
