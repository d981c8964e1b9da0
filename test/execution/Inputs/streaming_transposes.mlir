// Transposes large enough (over 32 MiB of traffic) for non-temporal stores,
// and at the end in-cache ones with power-of-two row strides, checked
// element by element by streaming_transposes.c.

// Destination rows 2048 floats apart (whole lines): aligned tiles.
func.func @lines(%x: !layout.tensor<2112x2048xf32>) -> !layout.tensor<2048x2112xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2112x2048xf32>
  %c = layout.contiguous %t : !layout.tensor<2048x2112xf32, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x2112xf32>
}

// Destination rows of 131 lines: streaming tiles of two lines per row, then
// one; split along b in pairs, the last chunk a single line.
func.func @pairs(%x: !layout.tensor<2096x2080xf32>) -> !layout.tensor<2080x2096xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2096x2080xf32>
  %c = layout.contiguous %t : !layout.tensor<2080x2096xf32, strided<[1, 2080]>>
  return %c : !layout.tensor<2080x2096xf32>
}

// The same with a loop inside the tile (rows of 17 lines): the split takes
// that loop rather than b.
func.func @pairs_inside(%x: !layout.tensor<272x128x256xf32>) -> !layout.tensor<256x128x272xf32> {
  %p = layout.permute %x [2, 1, 0] : !layout.tensor<272x128x256xf32>
  %c = layout.contiguous %p : !layout.tensor<256x128x272xf32, strided<[1, 256, 32768]>>
  return %c : !layout.tensor<256x128x272xf32>
}

// f64 rows of 131 lines, and f32 -> f16 rows of 3 lines (96 channels).
func.func @pairs_f64(%x: !layout.tensor<1048x2056xf64>) -> !layout.tensor<2056x1048xf64> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<1048x2056xf64>
  %c = layout.contiguous %t : !layout.tensor<2056x1048xf64, strided<[1, 2056]>>
  return %c : !layout.tensor<2056x1048xf64>
}

func.func @pairs_convert(%x: !layout.tensor<2x96x45056xf32>, %y: !layout.tensor<2x45056x96xf16>) {
  %p = layout.permute %x [0, 2, 1] : !layout.tensor<2x96x45056xf32>
  layout.copy %p, %y : !layout.tensor<2x45056x96xf32, strided<[4325376, 1, 45056]>>, !layout.tensor<2x45056x96xf16>
  return
}

// P9's permutation with destination rows of one line (16 floats) that
// continue along x's dim 2: that loop runs innermost, around tiles 18 deep
// along a (a masked part-square each).
func.func @rows_of_a_line(%x: !layout.tensor<16x12x16x10x16x18xf32>) -> !layout.tensor<18x10x12x16x16x16xf32> {
  %p = layout.permute %x [5, 3, 1, 0, 2, 4] : !layout.tensor<16x12x16x10x16x18xf32>
  %c = layout.contiguous %p : !layout.tensor<18x10x12x16x16x16xf32, strided<[1, 288, 46080, 552960, 2880, 18]>>
  return %c : !layout.tensor<18x10x12x16x16x16xf32>
}

// Rows 2049 floats apart: skewed tiles, split along b.
func.func @odd(%x: !layout.tensor<2049x2051xf32>) -> !layout.tensor<2051x2049xf32> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2049x2051xf32>
  %c = layout.contiguous %t : !layout.tensor<2051x2049xf32, strided<[1, 2051]>>
  return %c : !layout.tensor<2051x2049xf32>
}

// Batched, split along the batch, skewed (8 KiB source rows).
func.func @batched(%x: !layout.tensor<6x1025x2049xf32>) -> !layout.tensor<6x2049x1025xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<6x1025x2049xf32>
  %c = layout.contiguous %v : !layout.tensor<6x2049x1025xf32, strided<[2100225, 1, 2049]>>
  return %c : !layout.tensor<6x2049x1025xf32>
}

// P5 odd (2 KiB source rows): rectangular tiles, normal stores.
func.func @batched_short_rows(%x: !layout.tensor<63x511x513xf32>) -> !layout.tensor<63x513x511xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<63x511x513xf32>
  %c = layout.contiguous %v : !layout.tensor<63x513x511xf32, strided<[262143, 1, 513]>>
  return %c : !layout.tensor<63x513x511xf32>
}

// A loop inside the tile's b blocks, split along b in chunks of 4 lines.
func.func @inside(%x: !layout.tensor<1025x5x1031xf32>) -> !layout.tensor<1031x5x1025xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<1025x5x1031xf32>
  %c = layout.contiguous %v : !layout.tensor<1031x5x1025xf32, strided<[1, 1031, 5155]>>
  return %c : !layout.tensor<1031x5x1025xf32>
}

// Split along b in chunks of 1 line, too narrow to skew: rectangular tiles
// storing normally, split along the middle loop instead.
func.func @narrow(%x: !layout.tensor<255x257x255xf32>) -> !layout.tensor<255x257x255xf32> {
  %v = layout.permute %x [2, 1, 0] : !layout.tensor<255x257x255xf32>
  %c = layout.contiguous %v : !layout.tensor<255x257x255xf32, strided<[1, 255, 65535]>>
  return %c : !layout.tensor<255x257x255xf32>
}

// P7 with odd extents, [33, 65, 63, 65] reversed: destination rows of 33
// elements, normal stores; the loop continuing the source rows runs inside
// each b-block, the one continuing the destination rows outside it, split
// across threads; b's last column and a's last row (a = 65) go through
// masked squares. Then f64, whose squares are 4 x 4.
func.func @reverse4(%x: !layout.tensor<33x65x63x65xf32>) -> !layout.tensor<65x63x65x33xf32> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<33x65x63x65xf32>
  %c = layout.contiguous %v : !layout.tensor<65x63x65x33xf32, strided<[1, 65, 4095, 266175]>>
  return %c : !layout.tensor<65x63x65x33xf32>
}

func.func @reverse4_f64(%x: !layout.tensor<33x65x31x67xf64>) -> !layout.tensor<67x31x65x33xf64> {
  %v = layout.permute %x [3, 2, 1, 0] : !layout.tensor<33x65x31x67xf64>
  %c = layout.contiguous %v : !layout.tensor<67x31x65x33xf64, strided<[1, 67, 2077, 135005]>>
  return %c : !layout.tensor<67x31x65x33xf64>
}

func.func @f16(%x: !layout.tensor<4097x4095xf16>) -> !layout.tensor<4095x4097xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4097x4095xf16>
  %c = layout.contiguous %t : !layout.tensor<4095x4097xf16, strided<[1, 4095]>>
  return %c : !layout.tensor<4095x4097xf16>
}

// f16 with destination rows of whole lines (129 of them): aligned streaming
// tiles of 32 x 32 halves (with AVX-512, eight 64-byte vectors of four 8 x 8
// squares side by side), then one 8-row tile for the last 8 rows.
func.func @f16lines(%x: !layout.tensor<4128x4104xf16>) -> !layout.tensor<4104x4128xf16> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<4128x4104xf16>
  %c = layout.contiguous %t : !layout.tensor<4104x4128xf16, strided<[1, 4104]>>
  return %c : !layout.tensor<4104x4128xf16>
}

func.func @i8(%x: !layout.tensor<8191x4097xi8>) -> !layout.tensor<4097x8191xi8> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<8191x4097xi8>
  %c = layout.contiguous %t : !layout.tensor<4097x8191xi8, strided<[1, 4097]>>
  return %c : !layout.tensor<4097x8191xi8>
}

func.func @f64(%x: !layout.tensor<1449x1451xf64>) -> !layout.tensor<1451x1449xf64> {
  %t = layout.transpose %x 0, 1 : !layout.tensor<1449x1451xf64>
  %c = layout.contiguous %t : !layout.tensor<1451x1449xf64, strided<[1, 1451]>>
  return %c : !layout.tensor<1451x1449xf64>
}

// Fused f32 -> f16 conversion: the buffer holds halves, 32 to a line.
func.func @convert(%x: !layout.tensor<2897x2899xf32>, %y: !layout.tensor<2899x2897xf16>) {
  %t = layout.transpose %x 0, 1 : !layout.tensor<2897x2899xf32>
  layout.copy %t, %y : !layout.tensor<2899x2897xf32, strided<[1, 2899]>>, !layout.tensor<2899x2897xf16>
  return
}

// x.flip(0).T: b (the destination's stride-1 loop) walks the source
// backwards, and the destination starts mid-line with a column offset.
func.func @flipped(%x: !layout.tensor<2049x2051xf32>) -> !layout.tensor<2051x2049xf32> {
  %f = layout.flip %x [0] : !layout.tensor<2049x2051xf32>
  %t = layout.transpose %f 0, 1 : !layout.tensor<2049x2051xf32, strided<[-2051, 1], offset: 4200448>>
  %c = layout.contiguous %t : !layout.tensor<2051x2049xf32, strided<[1, -2051], offset: 4200448>>
  return %c : !layout.tensor<2051x2049xf32>
}

// The same with whole lines (2112 floats per destination row): pairs of
// lines whose squares read the source backwards.
func.func @flipped_lines(%x: !layout.tensor<2112x2048xf32>) -> !layout.tensor<2048x2112xf32> {
  %f = layout.flip %x [0] : !layout.tensor<2112x2048xf32>
  %t = layout.transpose %f 0, 1 : !layout.tensor<2112x2048xf32, strided<[-2048, 1], offset: 4323328>>
  %c = layout.contiguous %t : !layout.tensor<2048x2112xf32, strided<[1, -2048], offset: 4323328>>
  return %c : !layout.tensor<2048x2112xf32>
}

// NHWC -> NCHW with 64 channels (P3): source rows of 256 bytes, few to an L1
// set, take the register-only streaming tile.
func.func @nhwc(%x: !layout.tensor<8x112x112x64xf32>) -> !layout.tensor<8x64x112x112xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<8x112x112x64xf32>
  %c = layout.contiguous %v : !layout.tensor<8x64x112x112xf32, strided<[802816, 1, 7168, 64]>>
  return %c : !layout.tensor<8x64x112x112xf32>
}

// 44 channels: two 16-channel tiles, one of 8, then a masked square.
func.func @nhwc44(%x: !layout.tensor<10x112x112x44xf32>) -> !layout.tensor<10x44x112x112xf32> {
  %v = layout.permute %x [0, 3, 1, 2] : !layout.tensor<10x112x112x44xf32>
  %c = layout.contiguous %v : !layout.tensor<10x44x112x112xf32, strided<[551936, 1, 4928, 44]>>
  return %c : !layout.tensor<10x44x112x112xf32>
}

// NCHW -> NHWC with destination rows of no whole lines (63 f32 channels,
// 20 f64, 24 f16): staged rows, each block of rows transposed into a
// buffer laid out like the destination and streamed whole lines at a time.
// The 2-D one has no loop outside the tile, so it splits a.
func.func @nhwc63(%x: !layout.tensor<6x63x12543xf32>) -> !layout.tensor<6x12543x63xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<6x63x12543xf32>
  %c = layout.contiguous %v : !layout.tensor<6x12543x63xf32, strided<[790209, 1, 12543]>>
  return %c : !layout.tensor<6x12543x63xf32>
}

func.func @hwc24(%x: !layout.tensor<24x350003xf32>) -> !layout.tensor<350003x24xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<24x350003xf32>
  %c = layout.contiguous %v : !layout.tensor<350003x24xf32, strided<[1, 350003]>>
  return %c : !layout.tensor<350003x24xf32>
}

func.func @nhwc20d(%x: !layout.tensor<2x20x120003xf64>) -> !layout.tensor<2x120003x20xf64> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<2x20x120003xf64>
  %c = layout.contiguous %v : !layout.tensor<2x120003x20xf64, strided<[2400060, 1, 120003]>>
  return %c : !layout.tensor<2x120003x20xf64>
}

func.func @nhwc24h(%x: !layout.tensor<4x24x200003xf16>) -> !layout.tensor<4x200003x24xf16> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<4x24x200003xf16>
  %c = layout.contiguous %v : !layout.tensor<4x200003x24xf16, strided<[4800072, 1, 200003]>>
  return %c : !layout.tensor<4x200003x24xf16>
}

// Normal-store transposes with more than 4096 rows of a go in panels of
// 2048 rows (in cache, and f32 -> f16 with 63 channels: edges element by
// element, so not staged).
func.func @hwc63small(%x: !layout.tensor<63x9001xf32>) -> !layout.tensor<9001x63xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<63x9001xf32>
  %c = layout.contiguous %v : !layout.tensor<9001x63xf32, strided<[1, 9001]>>
  return %c : !layout.tensor<9001x63xf32>
}

func.func @nhwc63h(%x: !layout.tensor<3x63x12543xf32>, %y: !layout.tensor<3x12543x63xf16>) {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<3x63x12543xf32>
  %h = layout.to %v f16 : !layout.tensor<3x12543x63xf32, strided<[790209, 1, 12543]>>
  layout.copy %h, %y : !layout.tensor<3x12543x63xf16, strided<[790209, 1, 12543]>>, !layout.tensor<3x12543x63xf16>
  return
}

// NCHW -> NHWC with 3 channels: rows interleaved into one contiguous run
// per image, streamed in whole vectors per channel (u8, f32, and f32 -> f16,
// whose pieces are 16 bytes).
func.func @nchw3(%x: !layout.tensor<6x3x1024x1031xi8>) -> !layout.tensor<6x1024x1031x3xi8> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<6x3x1024x1031xi8>
  %c = layout.contiguous %v : !layout.tensor<6x1024x1031x3xi8, strided<[3167232, 1031, 1, 1055744]>>
  return %c : !layout.tensor<6x1024x1031x3xi8>
}

func.func @nchw3f(%x: !layout.tensor<2x3x1024x1031xf32>) -> !layout.tensor<2x1024x1031x3xf32> {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<2x3x1024x1031xf32>
  %c = layout.contiguous %v : !layout.tensor<2x1024x1031x3xf32, strided<[3167232, 1031, 1, 1055744]>>
  return %c : !layout.tensor<2x1024x1031x3xf32>
}

func.func @nchw3h(%x: !layout.tensor<3x3x1024x1031xf32>, %y: !layout.tensor<3x1024x1031x3xf16>) {
  %v = layout.permute %x [0, 2, 3, 1] : !layout.tensor<3x3x1024x1031xf32>
  layout.copy %v, %y : !layout.tensor<3x1024x1031x3xf32, strided<[3167232, 1031, 1, 1055744]>>, !layout.tensor<3x1024x1031x3xf16>
  return
}

// In cache, source rows 4 KiB apart (all in one L1 set): squares narrower
// than a line store normally one at a time (f16, i8, f32 -> f16, and f32
// with AVX2's 8 x 8 squares), with 61 and 37 rows for the partial tiles.
func.func @pow2h(%x: !layout.tensor<61x2048xf16>) -> !layout.tensor<2048x61xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<61x2048xf16>
  %c = layout.contiguous %v : !layout.tensor<2048x61xf16, strided<[1, 2048]>>
  return %c : !layout.tensor<2048x61xf16>
}

func.func @pow2b(%x: !layout.tensor<64x4096xi8>) -> !layout.tensor<4096x64xi8> {
  %v = layout.permute %x [1, 0] : !layout.tensor<64x4096xi8>
  %c = layout.contiguous %v : !layout.tensor<4096x64xi8, strided<[1, 4096]>>
  return %c : !layout.tensor<4096x64xi8>
}

func.func @pow2c(%x: !layout.tensor<64x1024xf32>, %y: !layout.tensor<1024x64xf16>) {
  %v = layout.permute %x [1, 0] : !layout.tensor<64x1024xf32>
  %h = layout.to %v f16 : !layout.tensor<1024x64xf32, strided<[1, 1024]>>
  layout.copy %h, %y : !layout.tensor<1024x64xf16, strided<[1, 1024]>>, !layout.tensor<1024x64xf16>
  return
}

func.func @pow2f(%x: !layout.tensor<37x1024xf32>) -> !layout.tensor<1024x37xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<37x1024xf32>
  %c = layout.contiguous %v : !layout.tensor<1024x37xf32, strided<[1, 1024]>>
  return %c : !layout.tensor<1024x37xf32>
}

// In cache on one thread, destination rows 2 KiB apart: rows of tiles along
// b first, then the rows of a past the last whole tile (61 and 40 rows).
func.func @pow2d(%x: !layout.tensor<512x61xf32>) -> !layout.tensor<61x512xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<512x61xf32>
  %c = layout.contiguous %v : !layout.tensor<61x512xf32, strided<[1, 61]>>
  return %c : !layout.tensor<61x512xf32>
}

func.func @pow2dh(%x: !layout.tensor<1024x40xf16>) -> !layout.tensor<40x1024xf16> {
  %v = layout.permute %x [1, 0] : !layout.tensor<1024x40xf16>
  %c = layout.contiguous %v : !layout.tensor<40x1024xf16, strided<[1, 40]>>
  return %c : !layout.tensor<40x1024xf16>
}

// The same in chunks: 2-D split along a (the source's stride-1 loop), and
// a batch split by image.
func.func @pow2ds(%x: !layout.tensor<1024x125xf32>) -> !layout.tensor<125x1024xf32> {
  %v = layout.permute %x [1, 0] : !layout.tensor<1024x125xf32>
  %c = layout.contiguous %v : !layout.tensor<125x1024xf32, strided<[1, 125]>>
  return %c : !layout.tensor<125x1024xf32>
}

func.func @pow2db(%x: !layout.tensor<6x128x125xf32>) -> !layout.tensor<6x125x128xf32> {
  %v = layout.permute %x [0, 2, 1] : !layout.tensor<6x128x125xf32>
  %c = layout.contiguous %v : !layout.tensor<6x125x128xf32, strided<[16000, 1, 125]>>
  return %c : !layout.tensor<6x125x128xf32>
}
