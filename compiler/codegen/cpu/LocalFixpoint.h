// LocalFixpoint: a property of a function's variables found by repeating a pass over the body until
// a pass changes nothing, the one fixed-point loop the CPU backend's analyses share. Optimistic
// ones start from every candidate and demote those found without the property
// (UniformityAnalysis, NonNegativeAnalysis, LocalPlacement's once-per-block candidates); others
// start from none and admit (LocalPlacement's order of computation).
#pragma once

#include <cstddef>
#include <vector>

#include "codegen/cpu/VariableUses.h"

namespace pyk::codegen {

class LocalFixpoint {
public:
  explicit LocalFixpoint(size_t localCount) : holds_(localCount, false) {}

  bool holds(size_t local) const { return local < holds_.size() && holds_[local]; }
  // Gives the property to a local, or takes it: a pass that changes a local runs again.
  void admit(size_t local) { change(local, true); }
  void demote(size_t local) { change(local, false); }

  // Runs `pass` until a run changes no local.
  template <class Pass>
  void solve(Pass&& pass) {
    do {
      changed_ = false;
      pass();
    } while (changed_);
  }

  // The locals that hold the property.
  LocalSet members() const {
    LocalSet out;
    for (size_t i = 0; i < holds_.size(); ++i)
      if (holds_[i])
        out.insert(i);
    return out;
  }

private:
  void change(size_t local, bool value) {
    if (local < holds_.size() && holds_[local] != value) {
      holds_[local] = value;
      changed_ = true;
    }
  }

  std::vector<bool> holds_;
  bool changed_ = false;
};

} // namespace pyk::codegen
