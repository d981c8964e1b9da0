//===- LayoutAttrs.td - layout dialect attributes ----------*- tablegen -*-===//

#ifndef LAYOUT_ATTRS
#define LAYOUT_ATTRS

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Layout_PlanAttr : AttrDef<Layout_Dialect, "Plan"> {
  let mnemonic = "plan";
  let summary = "every decision a backend makes for one kernel";
  let description = [{
    `layout-plan-kernels` attaches a plan, as the discardable attribute
    `layout.plan`, to every `layout.materialize`, `layout.copy` and
    `layout.reduce` whose layouts are static. The backends and
    `--emit=explain` read it; none of them plans again. The decisions are a
    dictionary so that a strategy can add its own keys; their meaning is
    documented in `docs/internals/planner.md` and their schema is owned by
    `compiler/lib/Plan/PlanAttr.cpp`, which reads and writes them.

    ```mlir
    %1 = layout.materialize %0 ... {layout.plan = #layout.plan<{
      chunks = 1 : i64, index_bits = 32 : i64, loops = [...],
      strategy = "transpose", ...}>}
    ```
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$decisions);
  let assemblyFormat = "`<` $decisions `>`";
}

#endif // LAYOUT_ATTRS
