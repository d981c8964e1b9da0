//===- WisdomTest.cpp - Tuning files: shape classes, knobs, the format ----===//

#include "KernelPlanTest.h"

#include "layout/Compiler/Plan/Wisdom.h"

using namespace kernel_plan_test;

namespace {
KnobValues knobs(std::initializer_list<std::pair<const char *, int64_t>> kv) {
  KnobValues out;
  for (auto [k, v] : kv)
    out[k] = v;
  return out;
}

std::string parseError(llvm::StringRef text) {
  Fallible<Wisdom> w = Wisdom::parse(text);
  EXPECT_FALSE(w.ok());
  return w ? "" : w.message();
}
} // namespace

TEST(Wisdom, ShapeClassOfTransposes) {
  // P1: two loops of 4096, the destination's outer loop is the source's
  // stride-1 one.
  EXPECT_EQ(shapeClass(permuteCopy({4096, 4096}, {1, 0}, 4)),
            "transpose 4>4 [4096:0 4096:1]");
  // Odd extents round up and are marked: 4097 is not a whole number of
  // 16-element lines, 4095 neither.
  EXPECT_EQ(shapeClass(permuteCopy({4095, 4097}, {1, 0}, 4)),
            "transpose 4>4 [8192+:0 4096+:1]");
  // A conversion names both widths; NCHW -> NHWC with 3 channels (lines of
  // 32 f16 elements: 224 * 224 is a whole number of them, 8 and 3 not).
  EXPECT_EQ(shapeClass(permuteCopy({8, 3, 224, 224}, {0, 2, 3, 1}, 4, 2)),
            "transpose 4>2 [8+:2 65536:0 4+:1]");
  // A contiguous copy is one memcpy loop.
  Fallible<KernelPlan> flat =
      planCopy(rowMajor({1000}), rowMajor({1000}), 1, 1);
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(shapeClass(*flat), "memcpy 1>1 [1024+:0]");
}

TEST(Wisdom, KnobsChangeThePlan) {
  // P1 at full size stores pairs of lines per tile row by default; a tuned
  // stream_lines of 1 stores single lines.
  KernelPlan base = permuteCopy({4096, 4096}, {1, 0}, 4);
  ASSERT_EQ(base.streamLines, 2);
  Fallible<TargetInfo> single =
      applyKnobs(TargetInfo(), knobs({{"stream_lines", 1}}));
  ASSERT_TRUE(single.ok());
  KernelPlan tuned = permuteCopy({4096, 4096}, {1, 0}, 4, 0, *single);
  EXPECT_EQ(tuned.streamLines, 1);
  // A cache that holds the traffic: no streaming stores.
  Fallible<TargetInfo> big =
      applyKnobs(TargetInfo(), knobs({{"cache_bytes", int64_t(256) << 20}}));
  ASSERT_TRUE(big.ok());
  EXPECT_FALSE(permuteCopy({4096, 4096}, {1, 0}, 4, 0, *big).streamingStores);
  // The CPU code generation knobs land in the plan's CPU facts.
  Fallible<TargetInfo> panels =
      applyKnobs(TargetInfo(), knobs({{"panel_rows", 512}}));
  ASSERT_TRUE(panels.ok());
  EXPECT_EQ(panels->cpu.panelRows, 512);
  EXPECT_EQ(knobDifferences(TargetInfo(), *panels),
            knobs({{"panel_rows", 512}}));
  EXPECT_TRUE(knobDifferences(TargetInfo(), TargetInfo()).empty());
}

TEST(Wisdom, EveryKnobTriesValuesOtherThanItsDefault) {
  for (const TuningKnob &knob : tuningKnobs()) {
    TargetInfo t;
    int64_t def = knob.field(t);
    EXPECT_TRUE(llvm::any_of(knob.candidates, [&](int64_t v) {
      return v != def && v > 0;
    })) << knob.name.str();
  }
}

TEST(Wisdom, BadKnobs) {
  Fallible<TargetInfo> unknown =
      applyKnobs(TargetInfo(), knobs({{"tile_edge", 4}}));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("unknown knob 'tile_edge'; expected one of "
                                   "cache_bytes"),
            std::string::npos);
  Fallible<TargetInfo> zero =
      applyKnobs(TargetInfo(), knobs({{"stream_lines", 0}}));
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.message(), "knob 'stream_lines' must be positive, got 0");
}

TEST(Wisdom, PrintThenParse) {
  Wisdom w;
  w.set("znver4/x86-64-v4", "transpose 4>4 [4096:0 4096:1]",
        WisdomEntry{knobs({{"stream_lines", 1}, {"skew_lines", 16}}), 20.5,
                    22.25, 2});
  w.set("znver4/x86-64-v4", "*", WisdomEntry{knobs({{"panel_rows", 512}})});
  std::string text = w.print();
  EXPECT_EQ(text, R"({
  "layoutc_wisdom": 1,
  "entries": [
    {
      "target": "znver4/x86-64-v4",
      "class": "*",
      "knobs": {
        "panel_rows": 512
      }
    },
    {
      "target": "znver4/x86-64-v4",
      "class": "transpose 4>4 [4096:0 4096:1]",
      "knobs": {
        "skew_lines": 16,
        "stream_lines": 1
      },
      "measured": {
        "default_gbps": 20.50,
        "tuned_gbps": 22.25,
        "threads": 2
      }
    }
  ]
}
)");
  Fallible<Wisdom> back = Wisdom::parse(text);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->print(), text);
  const WisdomEntry *e =
      back->lookup("znver4/x86-64-v4", "transpose 4>4 [4096:0 4096:1]");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->knobs, knobs({{"stream_lines", 1}, {"skew_lines", 16}}));
  EXPECT_EQ(e->threads, 2);
  // Another class of the target falls back to its `*` entry; another
  // target has none.
  e = back->lookup("znver4/x86-64-v4", "memcpy 4>4 [1024:0]");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->knobs, knobs({{"panel_rows", 512}}));
  EXPECT_EQ(back->lookup("emeraldrapids/x86-64-v4", "*"), nullptr);
  Wisdom edited = *back;
  edited.erase("znver4/x86-64-v4", "*");
  EXPECT_EQ(edited.lookup("znver4/x86-64-v4", "memcpy 4>4 [1024:0]"), nullptr);
}

TEST(Wisdom, MergeKeepsTheFirstEntryPerKey) {
  // Presets merge in file order: a later file adds keys, never replaces.
  Wisdom first, second;
  first.set("znver4/x86-64-v4", "*", WisdomEntry{knobs({{"stream_lines", 1}})});
  second.set("znver4/x86-64-v4", "*",
             WisdomEntry{knobs({{"stream_lines", 4}})});
  second.set("znver4/x86-64-v4", "memcpy 4>4 [1024:0]",
             WisdomEntry{knobs({{"libc_copy_bytes", 1024}})});
  first.mergeMissing(second);
  EXPECT_EQ(first.all().size(), 2u);
  EXPECT_EQ(first.lookup("znver4/x86-64-v4", "*")->knobs,
            knobs({{"stream_lines", 1}}));
  EXPECT_EQ(first.lookup("znver4/x86-64-v4", "memcpy 4>4 [1024:0]")->knobs,
            knobs({{"libc_copy_bytes", 1024}}));
}

TEST(Wisdom, ParseErrorsSayWhere) {
  EXPECT_EQ(parseError("{"), "not JSON: [1:1, byte=1]: Expected object key");
  EXPECT_EQ(parseError("[]"), "expected a JSON object");
  EXPECT_EQ(parseError(R"({"entries": []})"),
            "expected \"layoutc_wisdom\": 1 (a layoutc tuning file)");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 2, "entries": []})"),
            "expected \"layoutc_wisdom\": 1 (a layoutc tuning file)");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1})"),
            "entries: expected an array");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [3]})"),
            "entries[0]: expected an object");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [
                {"target": "a", "class": "*", "knobs": {}},
                {"class": "*", "knobs": {}}]})"),
            "entries[1].target: expected a non-empty string");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [
                {"target": "a", "knobs": {}}]})"),
            "entries[0].class: expected a non-empty string");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [
                {"target": "a", "class": "*"}]})"),
            "entries[0].knobs: expected an object");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [
                {"target": "a", "class": "*", "knobs": {"stream_lines": 1.5}}]})"),
            "entries[0].knobs.stream_lines: expected an integer");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [
                {"target": "a", "class": "*", "knobs": {"stream_lines": -1}}]})"),
            "entries[0].knobs: knob 'stream_lines' must be positive, got -1");
  EXPECT_EQ(parseError(R"({"layoutc_wisdom": 1, "entries": [
                {"target": "a", "class": "*", "knobs": {}},
                {"target": "a", "class": "*", "knobs": {}}]})"),
            "entries[1]: a second entry for 'a', '*'");
}
