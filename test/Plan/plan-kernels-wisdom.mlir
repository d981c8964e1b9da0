// A tuning file's entry for a copy's shape class plans that copy with the
// entry's knobs, and the plan records them; other classes and reductions
// keep the target's defaults.
// RUN: layoutc %s --mcpu=x86-64-v4 --wisdom=%S/Inputs/wisdom.json --emit=explain | FileCheck %s --check-prefix=V4
// RUN: layoutc %s --wisdom=%S/Inputs/wisdom.json --emit=explain | FileCheck %s --check-prefix=V3
// RUN: layoutc %s --emit=explain | FileCheck %s --check-prefix=NONE
// RUN: layoutc %s --mcpu=x86-64-v4 --wisdom=%S/Inputs/wisdom.json | FileCheck %s --check-prefix=IR
// RUN: layout-opt %s --layout-fold-views --layout-plan-copies "--layout-plan-kernels=target=x86-64-v4 wisdom=%S/Inputs/wisdom.json" | FileCheck %s --check-prefix=PASS
// RUN: not layout-opt %s "--layout-plan-kernels=wisdom=%t.missing" 2>&1 | FileCheck %s --check-prefix=MISSING

// --mcpu=x86-64-v4 reads the entries of "x86-64-v4/x86-64-v4": the 4096 x
// 4096 transpose stores single lines instead of pairs; the 256 x 256 one,
// another class, and the reduction are planned by the defaults.
// V4-LABEL: "name": "big"
// V4: "strategy": "transpose", "loops": [{"size": 4096, {{.*}} "streaming_stores": true, "accumulator": null, "plan_source": "tuned", "tuned_knobs": {"stream_lines": 1}}
// V4-LABEL: "name": "small"
// V4: "strategy": "transpose", {{.*}} "plan_source": "heuristic", "tuned_knobs": null}
// V4-LABEL: "name": "total"
// V4: "strategy": "reduce_inner", {{.*}} "plan_source": "heuristic", "tuned_knobs": null}

// The default CPU's entry is "*": every copy takes it (a 256 MiB cache,
// so the big transpose no longer streams), the reduction still does not.
// V3-LABEL: "name": "big"
// V3: "streaming_stores": false, "accumulator": null, "plan_source": "tuned", "tuned_knobs": {"cache_bytes": 268435456}}
// V3-LABEL: "name": "small"
// V3: "plan_source": "tuned", "tuned_knobs": {"cache_bytes": 268435456}}
// V3-LABEL: "name": "total"
// V3: "plan_source": "heuristic", "tuned_knobs": null}

// NONE-LABEL: "name": "big"
// NONE: "streaming_stores": true, "accumulator": null, "plan_source": "heuristic", "tuned_knobs": null}

// IR-LABEL: func.func @big
// IR: stream_lines = 1 : i64, {{.*}}tuned = {stream_lines = 1 : i64}
// IR-LABEL: func.func @small
// IR-NOT: tuned =
// IR: return

// layout-opt's key is the preset's name unless wisdom-target says otherwise.
// PASS-LABEL: func.func @big
// PASS: tuned = {panel_rows = 512 : i64, stream_lines = 4 : i64}
// PASS-LABEL: func.func @small
// PASS-NOT: tuned =
// PASS: return

// MISSING: error: layout-plan-kernels: cannot read tuning file '{{.*}}.missing': No such file or directory

func.func @big(%x: !layout.tensor<4096x4096xf32>) -> !layout.tensor<4096x4096xf32> {
  %t = layout.permute %x [1, 0] : !layout.tensor<4096x4096xf32> -> !layout.tensor<4096x4096xf32, strided<[1, 4096]>>
  %c = layout.contiguous %t : !layout.tensor<4096x4096xf32, strided<[1, 4096]>> -> !layout.tensor<4096x4096xf32>
  return %c : !layout.tensor<4096x4096xf32>
}

func.func @small(%x: !layout.tensor<256x256xf32>) -> !layout.tensor<256x256xf32> {
  %t = layout.permute %x [1, 0] : !layout.tensor<256x256xf32> -> !layout.tensor<256x256xf32, strided<[1, 256]>>
  %c = layout.contiguous %t : !layout.tensor<256x256xf32, strided<[1, 256]>> -> !layout.tensor<256x256xf32>
  return %c : !layout.tensor<256x256xf32>
}

func.func @total(%x: !layout.tensor<64x64xf32>) -> !layout.tensor<64xf32> {
  %s = layout.reduce sum %x dims [1] : !layout.tensor<64x64xf32> -> !layout.tensor<64xf32>
  return %s : !layout.tensor<64xf32>
}
