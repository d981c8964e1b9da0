//===- CodegenParts.cpp - One module's code generation on several threads -===//
//
// emitObjectFile's shards split a program by its functions. A run-time-extent
// kernel module is one program function, but several large LLVM functions:
// its chunk functions and the square variants they call (rtOutline).
// splitForCodegen splits such a module by LLVM function into parts that the
// code generator compiles on threads of their own; linkRelocatable joins
// their objects as it joins shards'. The parts depend on the module alone,
// so the object does not depend on -j.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::layout;

/// The code generator's work for `f`, in instructions: shuffles count 4
/// (instruction selection combines them, most of a square's time).
static uint64_t codegenWeight(const llvm::Function &f) {
  uint64_t weight = 0;
  for (const llvm::BasicBlock &block : f)
    for (const llvm::Instruction &inst : block)
      weight += llvm::isa<llvm::ShuffleVectorInst>(inst) ? 4 : 1;
  return weight;
}

/// The part of every defined function: the heaviest first, each to the
/// lightest part so far (ties by name, so that the parts depend on the
/// module alone).
static llvm::DenseMap<const llvm::Function *, unsigned>
assignParts(llvm::Module &module, unsigned maxParts) {
  struct Item {
    const llvm::Function *f;
    uint64_t weight;
  };
  std::vector<Item> items;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration())
      items.push_back({&f, codegenWeight(f)});
  llvm::sort(items, [](const Item &x, const Item &y) {
    if (x.weight != y.weight)
      return x.weight > y.weight;
    return x.f->getName() < y.f->getName();
  });
  std::vector<uint64_t> load(maxParts, 0);
  llvm::DenseMap<const llvm::Function *, unsigned> partOf;
  for (const Item &item : items) {
    auto lightest = std::min_element(load.begin(), load.end());
    partOf[item.f] = lightest - load.begin();
    *lightest += item.weight;
  }
  return partOf;
}

/// Whether a use of `f` by `user` crosses parts (a use through a constant
/// counts as crossing).
static bool
crossesParts(const llvm::Function &f, const llvm::User *user,
             const llvm::DenseMap<const llvm::Function *, unsigned> &partOf) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(user);
  return !inst || partOf.lookup(inst->getFunction()) != partOf.lookup(&f);
}

std::vector<std::string> mlir::layout::splitForCodegen(llvm::Module &module,
                                                       unsigned maxParts) {
  auto asBitcode = [](const llvm::Module &m) {
    std::string bitcode;
    llvm::raw_string_ostream os(bitcode);
    // Use-list order reaches some passes of the code generator: kept, the
    // parts generate the same code on any thread.
    llvm::WriteBitcodeToFile(m, os, /*ShouldPreserveUseListOrder=*/true);
    return bitcode;
  };
  // A global variable other than the module's own constants would be
  // defined in every part that uses it.
  bool splittable =
      maxParts > 1 && module.alias_empty() && module.ifunc_empty() &&
      llvm::all_of(module.globals(), [](const llvm::GlobalVariable &g) {
        return g.hasLocalLinkage();
      });
  llvm::DenseMap<const llvm::Function *, unsigned> partOf;
  unsigned parts = 1;
  if (splittable) {
    partOf = assignParts(module, maxParts);
    for (const auto &entry : partOf)
      parts = std::max(parts, entry.second + 1);
  }
  if (parts == 1)
    return {asBitcode(module)};

  // A function called (or passed) across parts becomes a hidden symbol of
  // the object: named after the program's function with "__" in it, which
  // no program function may contain (FunctionABI.h), so no other
  // definition can take it.
  for (llvm::Function &f : module) {
    if (f.isDeclaration() || !f.hasLocalLinkage())
      continue;
    if (llvm::any_of(f.users(), [&](const llvm::User *user) {
          return crossesParts(f, user, partOf);
        })) {
      f.setLinkage(llvm::GlobalValue::ExternalLinkage);
      f.setVisibility(llvm::GlobalValue::HiddenVisibility);
      f.setDSOLocal(true);
    }
  }
  std::vector<std::string> bitcodes;
  for (unsigned p = 0; p < parts; ++p) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *g) {
          auto *f = llvm::dyn_cast<llvm::Function>(g);
          return !f || partOf.lookup(f) == p;
        });
    // Drop what the part does not use: the constants of other parts'
    // functions (until none is left that only those used), and
    // declarations.
    for (bool erased = true; erased;) {
      erased = false;
      for (llvm::GlobalVariable &g :
           llvm::make_early_inc_range(part->globals()))
        if (g.use_empty()) {
          g.eraseFromParent();
          erased = true;
        }
    }
    for (llvm::Function &f : llvm::make_early_inc_range(*part))
      if (f.isDeclaration() && f.use_empty())
        f.eraseFromParent();
    bitcodes.push_back(asBitcode(*part));
  }
  return bitcodes;
}
