// VariableStorage: the C++ variables that hold a function's SSA versions (ir::Function's). numba
// types each version of a variable on its own; the versions of one variable that share
// a type share one C++ variable, so a variable whose versions all have one type is one C++
// variable (`py_x`, the parameter itself for a parameter), as in the source. A variable whose
// versions differ in type gets one C++ variable per type (`pyv1_x`, ...), and a value is copied,
// converted, where a phi joins versions held apart.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/Ir.h"

namespace pyk::codegen {

struct StorageSlot {
  types::NumbaType type;
  std::string cppName;
};

class VariableStorage {
public:
  struct Copy {
    const StorageSlot* from;
    const StorageSlot* to;
    sema::VariableId variable; // the variable both hold
  };

  VariableStorage() = default;
  explicit VariableStorage(const ir::Function& f);
  // Copies point into the slots: a storage moves (which keeps the slots where they are), it is
  // not copied.
  VariableStorage(const VariableStorage&) = delete;
  VariableStorage& operator=(const VariableStorage&) = delete;
  VariableStorage(VariableStorage&&) = default;
  VariableStorage& operator=(VariableStorage&&) = default;

  // The C++ variable of a version; nullptr for a version typing gave no type.
  const StorageSlot* slotOf(size_t version) const;
  // The C++ variables of a variable, the first one holding the parameter or named as the local.
  const std::vector<StorageSlot>& slotsOf(sema::VariableId variable) const {
    return slots_[variable];
  }
  // Whether some variable needs more than one C++ variable.
  bool anySplitVariable() const;
  // The copies a control-flow edge makes (from a version's variable into a phi's), in order.
  const std::vector<Copy>& copiesAt(sema::PhiEdge edge, const ir::Stmt* at) const;

private:
  std::vector<std::vector<StorageSlot>> slots_;        // per variable
  std::vector<std::pair<size_t, size_t>> versionSlot_; // (variable, slot), or npos
  std::map<std::pair<int, const ir::Stmt*>, std::vector<Copy>> copies_;
};

} // namespace pyk::codegen
