//===- Passes.td - Kernel planning passes ------------------*- tablegen -*-===//

#ifndef LAYOUT_COMPILER_PLAN_PASSES
#define LAYOUT_COMPILER_PLAN_PASSES

include "mlir/Pass/PassBase.td"

def LayoutPlanKernelsPass
    : Pass<"layout-plan-kernels", "::mlir::func::FuncOp"> {
  let summary = "Attach the kernel plan of every copy, conversion and "
                "reduction for one target";
  let description = [{
    Plans every `layout.materialize`, `layout.copy` and `layout.reduce` that
    is left after `layout-plan-copies` for the target description `target`
    (a preset: `x86-64-v3`, `x86-64-v4`, `host`, `sm_80`, `sm_90`), and
    attaches the plan as `layout.plan = #layout.plan<{...}>`: the strategy,
    the coalesced loop nest, tiles and their tiling, vector width, the loop
    split across threads and its chunks, index width, store kind and
    accumulator. Every decision a backend makes is in it; the backends and
    `--emit=explain` read it and never plan again.

    With a tuning file (`wisdom`), a copy whose shape class has an entry
    for the target key is planned with the entry's knobs, and its plan
    records them (`tuned = {...}`); reductions are never tuned.

    Ops with a dynamic layout get no plan (explain shows them unplanned;
    code generation rejects them). A static layout the planner cannot
    handle (a byte offset that overflows i64) is an error at the op.

    Input:
    ```mlir
    %1 = layout.materialize %0 origin "layout.contiguous" reason "..."
        : !layout.tensor<64x64xf32, strided<[1, 64]>> -> !layout.tensor<64x64xf32>
    ```
    Output (`target=x86-64-v3`):
    ```mlir
    %1 = layout.materialize %0 origin "layout.contiguous" reason "..."
        {layout.plan = #layout.plan<{chunks = 1 : i64, ...,
         strategy = "transpose", tile = array<i64: 8, 8>, ...}>}
        : !layout.tensor<64x64xf32, strided<[1, 64]>> -> !layout.tensor<64x64xf32>
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", "\"x86-64-v3\"",
           "The target description to plan for (a preset name)">,
    Option<"wisdom", "wisdom", "std::string", "\"\"",
           "A tuning file (docs/tuning.md): copies whose shape class has an "
           "entry for `wisdom-target` are planned with its knobs">,
    Option<"wisdomTarget", "wisdom-target", "std::string", "\"\"",
           "The target key of the tuning file's entries to use (default: "
           "the `target` preset's name)">,
  ];
  let dependentDialects = ["::mlir::layout::LayoutDialect"];
}

#endif // LAYOUT_COMPILER_PLAN_PASSES
