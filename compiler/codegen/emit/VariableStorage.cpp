// VariableStorage: versions of one variable and one type in one C++ variable; the copies at the
// edges into phis held in another (see VariableStorage.h).
#include "codegen/emit/VariableStorage.h"

#include <limits>

#include "codegen/spelling/CppNames.h"

namespace pyk::codegen {

namespace {

constexpr size_t kNone = std::numeric_limits<size_t>::max();

} // namespace

VariableStorage::VariableStorage(const ir::Function& f) {
  const std::vector<ir::Version>& versions = f.versions;
  const size_t variables = f.variables.size();
  slots_.assign(variables, {});
  versionSlot_.assign(versions.size(), {kNone, kNone});

  // The type each version is stored in: its own, except for a version nothing reads that only
  // flows into phis of one type, which is stored in theirs at once (`s = 0` before a loop that
  // makes `s` a float needs no integer variable of its own).
  std::vector<const types::NumbaType*> stored(versions.size(), nullptr);
  for (size_t v = 0; v < versions.size(); ++v)
    if (versions[v].live && versions[v].type)
      stored[v] = &*versions[v].type;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t v = 0; v < versions.size(); ++v) {
      const ir::Version& version = versions[v];
      if (version.kind == ir::Version::Kind::Entry || version.reads != 0 ||
          version.usedByPhis.empty() || stored[v] == nullptr)
        continue;
      const types::NumbaType* common = stored[version.usedByPhis.front()];
      for (size_t phi : version.usedByPhis)
        if (stored[phi] == nullptr || common == nullptr || !(*stored[phi] == *common))
          common = nullptr;
      if (common != nullptr && !(*common == *stored[v])) {
        stored[v] = common;
        changed = true;
      }
    }
  }

  for (size_t v = 0; v < versions.size(); ++v) {
    if (stored[v] == nullptr)
      continue;
    const sema::VariableId var = versions[v].variable;
    std::vector<StorageSlot>& slots = slots_[var];
    size_t slot = 0;
    while (slot < slots.size() && !(slots[slot].type == *stored[v]))
      ++slot;
    if (slot == slots.size()) {
      const std::string name = pythonName(f.variableName(var));
      slots.push_back(
          {*stored[v], slot == 0 ? name : "pyv" + std::to_string(slot) + "_" + name.substr(3)});
    }
    versionSlot_[v] = {var, slot};
  }

  for (size_t phi = 0; phi < versions.size(); ++phi) {
    const StorageSlot* to = slotOf(phi);
    if (to == nullptr)
      continue;
    for (const ir::PhiInput& in : versions[phi].inputs) {
      const StorageSlot* from = slotOf(in.version);
      if (from != nullptr && from != to)
        copies_[{static_cast<int>(in.edge), in.at}].push_back({from, to, versions[phi].variable});
    }
  }
}

const StorageSlot* VariableStorage::slotOf(size_t version) const {
  if (version >= versionSlot_.size() || versionSlot_[version].first == kNone)
    return nullptr;
  return &slots_[versionSlot_[version].first][versionSlot_[version].second];
}

bool VariableStorage::anySplitVariable() const {
  for (const std::vector<StorageSlot>& s : slots_)
    if (s.size() > 1)
      return true;
  return false;
}

const std::vector<VariableStorage::Copy>& VariableStorage::copiesAt(sema::PhiEdge edge,
                                                                    const ir::Stmt* at) const {
  static const std::vector<Copy> kNoCopies;
  auto it = copies_.find({static_cast<int>(edge), at});
  return it == copies_.end() ? kNoCopies : it->second;
}

} // namespace pyk::codegen
