// RUN: not layout-opt %s --layout-plan-kernels=target=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: layout-opt %s --layout-fold-views --layout-plan-copies --layout-plan-kernels=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: layout-opt %s --layout-fold-views --layout-plan-copies --layout-plan-kernels=target=host | FileCheck %s --check-prefix=HOST

// An unknown preset is an error that names the presets.
// BOGUS: error: layout-plan-kernels: unknown target 'bogus'; expected one of x86-64-v3, x86-64-v4, host, sm_80, sm_90

// sm_80 plans as sm_90 does (one CUDA source serves both): 16-byte vectors.
// SM80: layout.plan = #layout.plan<{{{.*}}strategy = "memcpy",{{.*}} vector_width = 4 : i64}>

// host is one of the CPU presets with this machine's caches: 32-byte vectors
// on every x86-64 host.
// HOST: layout.plan = #layout.plan<{{{.*}}strategy = "memcpy",{{.*}} vector_width = 8 : i64}>
func.func @copy(%x: !layout.tensor<4x8xf32>) -> !layout.tensor<4x8xf32> {
  %c = layout.clone %x : !layout.tensor<4x8xf32>
  return %c : !layout.tensor<4x8xf32>
}
