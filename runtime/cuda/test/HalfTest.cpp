//===- HalfTest.cpp - f16/bf16 conversions against numpy and torch --------===//
//
// Every 16-bit pattern widened, and every rounding decision of the narrowing
// conversions (each value, each tie, the neighbours of both, random inputs)
// compared bit for bit with tables that gen_half_tables.py computes with
// numpy and torch. NaN must stay NaN and become CUDA's canonical 0x7fff.
//
//===----------------------------------------------------------------------===//

#include "layout_rt/cuda.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifndef LRT_HALF_TABLES
#error "LRT_HALF_TABLES must name the table file written by gen_half_tables.py"
#endif

namespace {

struct Tables {
  std::vector<uint32_t> F16ToF32;
  std::vector<uint32_t> F32ForF16;
  std::vector<uint16_t> F16OfF32;
  std::vector<uint64_t> F64ForF16;
  std::vector<uint16_t> F16OfF64;
  std::vector<uint32_t> BF16ToF32;
  std::vector<uint32_t> F32ForBF16;
  std::vector<uint16_t> BF16OfF32;
  std::vector<uint64_t> F64ForBF16;
  std::vector<uint16_t> BF16OfF64;
  std::string Error;
};

class Reader {
public:
  explicit Reader(const char *Path) : File(std::fopen(Path, "rb")) {}
  ~Reader() {
    if (File)
      std::fclose(File);
  }
  bool ok() const { return File && Good; }
  uint32_t count() {
    uint32_t N = 0;
    read(&N, sizeof(N));
    return N;
  }
  template <typename T> void array(std::vector<T> &V, uint32_t N) {
    V.resize(N);
    read(V.data(), N * sizeof(T));
  }
  void read(void *P, size_t Bytes) {
    if (!File || std::fread(P, 1, Bytes, File) != Bytes)
      Good = false;
  }

private:
  FILE *File;
  bool Good = true;
};

const Tables &tables() {
  static const Tables T = [] {
    Tables T;
    Reader R(LRT_HALF_TABLES);
    char Magic[4] = {};
    R.read(Magic, 4);
    if (!R.ok() || std::memcmp(Magic, "LRTH", 4) != 0) {
      T.Error = "cannot read " LRT_HALF_TABLES;
      return T;
    }
    uint32_t N = R.count();
    R.array(T.F16ToF32, N);
    N = R.count();
    R.array(T.F32ForF16, N);
    R.array(T.F16OfF32, N);
    N = R.count();
    R.array(T.F64ForF16, N);
    R.array(T.F16OfF64, N);
    N = R.count();
    R.array(T.BF16ToF32, N);
    N = R.count();
    R.array(T.F32ForBF16, N);
    R.array(T.BF16OfF32, N);
    N = R.count();
    R.array(T.F64ForBF16, N);
    R.array(T.BF16OfF64, N);
    if (!R.ok())
      T.Error = "truncated table file " LRT_HALF_TABLES;
    return T;
  }();
  return T;
}

uint32_t bitsOf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, sizeof(U));
  return U;
}
float floatOf(uint32_t U) {
  float F;
  std::memcpy(&F, &U, sizeof(F));
  return F;
}
double doubleOf(uint64_t U) {
  double D;
  std::memcpy(&D, &U, sizeof(D));
  return D;
}
bool isNaN16(uint16_t B, unsigned ExpMask, unsigned ManMask) {
  return (B & ExpMask) == ExpMask && (B & ManMask) != 0;
}

/// Counts mismatches of a narrowing conversion, reporting the first few.
template <typename In, typename Convert>
int checkNarrowing(const char *Name, const std::vector<In> &Inputs,
                   const std::vector<uint16_t> &Expected, unsigned ExpMask,
                   unsigned ManMask, Convert Fn) {
  int Bad = 0;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    uint16_t Got = Fn(Inputs[I]);
    uint16_t Want = Expected[I];
    bool Ok = isNaN16(Want, ExpMask, ManMask) ? Got == 0x7fff : Got == Want;
    if (!Ok && Bad++ < 8)
      ADD_FAILURE() << Name << "(input bits 0x" << std::hex
                    << static_cast<unsigned long long>(Inputs[I]) << ") = 0x"
                    << Got << ", reference 0x" << Want;
  }
  return Bad;
}

class HalfTest : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_EQ(tables().Error, ""); }
};

TEST_F(HalfTest, TablesCoverEveryPatternAndTheRoundingCases) {
  const Tables &T = tables();
  EXPECT_EQ(T.F16ToF32.size(), 65536u);
  EXPECT_EQ(T.BF16ToF32.size(), 65536u);
  // Six candidates for each of the 63488 finite f16 patterns, plus randoms.
  EXPECT_GT(T.F32ForF16.size(), 6u * 63488u);
  EXPECT_GT(T.F64ForF16.size(), 6u * 63488u);
  EXPECT_GT(T.F32ForBF16.size(), 6u * 65024u);
  EXPECT_GT(T.F64ForBF16.size(), 6u * 65024u);
}

TEST_F(HalfTest, HalfToFloatIsExactForAllPatterns) {
  const Tables &T = tables();
  int Bad = 0;
  for (uint32_t B = 0; B < 65536; ++B) {
    float Got = __half2float(__ushort_as_half(static_cast<uint16_t>(B)));
    float Want = floatOf(T.F16ToF32[B]);
    bool Ok = std::isnan(Want)
                  ? std::isnan(Got) && std::signbit(Got) == std::signbit(Want)
                  : bitsOf(Got) == T.F16ToF32[B];
    if (!Ok && Bad++ < 8)
      ADD_FAILURE() << "__half2float(0x" << std::hex << B << ") = 0x"
                    << bitsOf(Got) << ", numpy 0x" << T.F16ToF32[B];
  }
  EXPECT_EQ(Bad, 0);
}

TEST_F(HalfTest, BFloat16ToFloatIsExactForAllPatterns) {
  const Tables &T = tables();
  int Bad = 0;
  for (uint32_t B = 0; B < 65536; ++B) {
    float Got =
        __bfloat162float(__ushort_as_bfloat16(static_cast<uint16_t>(B)));
    if (bitsOf(Got) != T.BF16ToF32[B] && Bad++ < 8)
      ADD_FAILURE() << "__bfloat162float(0x" << std::hex << B << ") = 0x"
                    << bitsOf(Got) << ", torch 0x" << T.BF16ToF32[B];
  }
  EXPECT_EQ(Bad, 0);
}

TEST_F(HalfTest, FloatToHalfRoundsToNearestEven) {
  const Tables &T = tables();
  EXPECT_EQ(
      checkNarrowing("__float2half_rn", T.F32ForF16, T.F16OfF32, 0x7c00, 0x3ff,
                     [](uint32_t In) {
                       return __half_as_ushort(__float2half_rn(floatOf(In)));
                     }),
      0);
}

TEST_F(HalfTest, DoubleToHalfRoundsOnce) {
  const Tables &T = tables();
  EXPECT_EQ(
      checkNarrowing("__double2half", T.F64ForF16, T.F16OfF64, 0x7c00, 0x3ff,
                     [](uint64_t In) {
                       return __half_as_ushort(__double2half(doubleOf(In)));
                     }),
      0);
}

TEST_F(HalfTest, FloatToBFloat16RoundsToNearestEven) {
  const Tables &T = tables();
  EXPECT_EQ(checkNarrowing(
                "__float2bfloat16_rn", T.F32ForBF16, T.BF16OfF32, 0x7f80, 0x7f,
                [](uint32_t In) {
                  return __bfloat16_as_ushort(__float2bfloat16_rn(floatOf(In)));
                }),
            0);
}

TEST_F(HalfTest, DoubleToBFloat16RoundsOnce) {
  const Tables &T = tables();
  EXPECT_EQ(checkNarrowing(
                "__double2bfloat16", T.F64ForBF16, T.BF16OfF64, 0x7f80, 0x7f,
                [](uint64_t In) {
                  return __bfloat16_as_ushort(__double2bfloat16(doubleOf(In)));
                }),
            0);
}

TEST(HalfEdgeCases, MatchCUDAsDocumentedResults) {
  // Spot values that a reader can check by hand.
  EXPECT_EQ(__half_as_ushort(__float2half_rn(1.0f)), 0x3c00);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(65504.0f)), 0x7bff);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(65519.996f)), 0x7bff);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(65520.0f)), 0x7c00); // tie: even
  EXPECT_EQ(__half_as_ushort(__float2half_rn(-1e9f)), 0xfc00);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(std::ldexp(1.0f, -24))), 0x0001);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(std::ldexp(1.0f, -25))), 0x0000);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(std::ldexp(1.5f, -25))), 0x0001);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(-0.0f)), 0x8000);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(NAN)), 0x7fff);
  EXPECT_EQ(__half_as_ushort(__float2half_rn(-NAN)), 0x7fff);
  // 1 + 2^-11 + 2^-40 is just above a tie: rounding through float would
  // drop the 2^-40 and round the tie down to even.
  EXPECT_EQ(__half_as_ushort(__double2half(1.0 + std::ldexp(1.0, -11) +
                                           std::ldexp(1.0, -40))),
            0x3c01);
  EXPECT_EQ(__bfloat16_as_ushort(__double2bfloat16(1.0 + std::ldexp(1.0, -8) +
                                                   std::ldexp(1.0, -40))),
            0x3f81);
  EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16_rn(1.0f)), 0x3f80);
  EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16_rn(3.4e38f)), 0x7f80);
  EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16_rn(NAN)), 0x7fff);
  EXPECT_EQ(__half2float(__ushort_as_half(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_EQ(__bfloat162float(__ushort_as_bfloat16(0xc040)), -3.0f);
}

} // namespace
