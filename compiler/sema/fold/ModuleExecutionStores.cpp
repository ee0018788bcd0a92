// ModuleExecutionStores: the changes the module's code makes in place (ModuleExecutionInternal.h):
// items of arrays stored and augmented, lists built by `append`, `extend`, `insert` and `+=`;
// each applied only to an array or list of the code's own making, the names computed from it
// then left unknown (they may be views of it).
#include <algorithm>

#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"
#include "sema/fold/ModuleExecutionInternal.h"
#include "sema/resolve/ModuleSymbolTable.h"

namespace pyk::sema::execution {

bool Executor::storeItem(const ast::Subscript* s, const FoldResult& value, SourceRange range,
                         std::string& reason) {
  const auto* base = s->value->as<ast::Name>();
  auto [f, b] = base != nullptr ? bindingOf(base->id) : std::pair<Frame*, Binding*>{};
  (void)f;
  if (b != nullptr && b->list)
    return storeListItem(base->id, *b, s, value, range, reason);
  if (b == nullptr || !b->value.isConstant() || b->value.value().kind != Kind::Array ||
      !b->ownArray || b->value.value().array->isRecordArray()) {
    reason = "an item of an array or object is assigned that pyk does not follow";
    return false;
  }
  if (!value.isConstant() || !value.value().isNumber()) {
    reason = value.isConstant() ? "an array item is assigned " + value.value().typeDescription()
                                : value.reason();
    return false;
  }
  bool whole = false;
  size_t flat = 0;
  if (!itemPosition(*b->value.value().array, s->slice, whole, flat, reason))
    return false;
  return storeAt(base->id, *b, whole, flat, value.value(), range, reason);
}

bool Executor::itemPosition(const ConstantArray& array, const ast::Expr* slice, bool& whole,
                            size_t& flat, std::string& reason) {
  if (const auto* sl = slice->as<ast::Slice>())
    whole = sl->lower == nullptr && sl->upper == nullptr && sl->step == nullptr;
  if (const auto* c = slice->as<ast::Constant>())
    whole = c->valueKind == ast::ConstantKind::Ellipsis;
  if (whole)
    return true;
  FoldResult index = fold(slice);
  if (!index.isConstant()) {
    reason = slice->is<ast::Slice>() || slice->is<ast::Tuple>()
                 ? "an array is assigned through a slice, which pyk does not fold"
                 : index.reason();
    return false;
  }
  std::vector<__int128> at;
  const ConstantValue& i = index.value();
  if (isIntegral(i))
    at.push_back(asInt(i));
  else if (i.kind == Kind::Tuple)
    for (const ConstantValue& e : i.elements)
      if (isIntegral(e))
        at.push_back(asInt(e));
  if (at.size() != array.shape.size() ||
      (i.kind == Kind::Tuple && i.elements.size() != at.size())) {
    reason = "an array is assigned through a slice or a partial index, which pyk does not fold";
    return false;
  }
  int64_t position = 0;
  for (size_t d = 0; d < at.size(); ++d) {
    __int128 k = at[d] < 0 ? at[d] + array.shape[d] : at[d];
    if (k < 0 || k >= array.shape[d]) {
      reason = "an array is assigned out of its bounds (IndexError)";
      return false;
    }
    position = position * array.shape[d] + static_cast<int64_t>(k);
  }
  flat = static_cast<size_t>(position);
  return true;
}

bool Executor::storeAt(const std::string& name, Binding& b, bool whole, size_t flat,
                       const ConstantValue& value, SourceRange range, std::string& reason) {
  const ConstantArray& old = *b.value.value().array;
  FoldResult item = castToScalar(value, old.dtype);
  if (!item.isConstant()) {
    reason = "the stored value does not convert to the array's dtype";
    return false;
  }
  auto changed = std::make_shared<ConstantArray>(old);
  if (whole)
    for (ConstantValue& v : changed->values)
      v = item.value();
  else
    changed->values[flat] = item.value();
  b.value = FoldResult::constant(ConstantValue::arrayOf(std::move(changed)));
  b.range = range;
  spend(b.value.value());
  dependentsUnknown(name, "it may share memory with `" + name + "`, which is changed after it",
                    range);
  return true;
}

std::optional<Flow> Executor::augmentItem(const ast::Stmt* s, const ast::AugAssign& a) {
  const auto* sub = a.target->as<ast::Subscript>();
  const auto* base = sub != nullptr ? sub->value->as<ast::Name>() : nullptr;
  Binding* b = base != nullptr ? bindingOf(base->id).second : nullptr;
  if (b == nullptr || b->list || !b->ownArray || !b->value.isConstant() ||
      b->value.value().kind != Kind::Array || b->value.value().array->isRecordArray())
    return std::nullopt;
  bool whole = false;
  size_t flat = 0;
  std::string reason;
  FoldResult operand = fold(a.value);
  if (!operand.isConstant() || !operand.value().isNumber())
    return cannotFollow(s, operand.isConstant()
                               ? "an array item is changed by " + operand.value().typeDescription()
                               : operand.reason());
  if (!itemPosition(*b->value.value().array, sub->slice, whole, flat, reason))
    return cannotFollow(s, reason);
  if (whole) {
    FoldResult r = folding::elementwise(a.op, b->value.value(), operand.value());
    if (!r.isConstant() || r.value().array->dtype != b->value.value().array->dtype)
      return cannotFollow(s, "an array is changed in place by an augmented assignment pyk "
                             "does not follow");
    b->value = std::move(r);
    b->range = s->range;
    dependentsUnknown(base->id,
                      "it may share memory with `" + base->id + "`, which is changed after it",
                      s->range);
    return Flow::Normal;
  }
  FoldResult r = applyBinaryOperator(a.op, b->value.value().array->values[flat], operand.value());
  if (!r.isConstant())
    return cannotFollow(s, r.status() == FoldResult::Status::Error ? "computing it raises an error"
                                                                   : r.reason());
  if (!storeAt(base->id, *b, false, flat, r.value(), s->range, reason))
    return cannotFollow(s, reason);
  return Flow::Normal;
}

bool Executor::returnsOwnArray(const ast::Expr* e) {
  const auto* call = e->as<ast::Call>();
  const auto* callee = call != nullptr ? call->func->as<ast::Name>() : nullptr;
  return callee != nullptr && functions_.count(callee->id) && !lookup(callee->id) && lastCallOwn_;
}

bool Executor::readsList(const ast::Expr* e) {
  bool found = false;
  eachOf<ast::Name>(e, [&](const ast::Name* n) {
    Binding* b = bindingOf(n->id).second;
    found = found || (b != nullptr && b->list);
  });
  return found;
}

bool Executor::producesList(const ast::Expr* e) {
  if (e == nullptr)
    return false;
  if (const auto* n = e->as<ast::Name>()) {
    const Binding* b = bindingOf(n->id).second;
    return b != nullptr && b->list;
  }
  if (e->is<ast::List>() || e->is<ast::ListComp>())
    return true;
  if (const auto* b = e->as<ast::BinOp>())
    return producesList(b->left) || producesList(b->right);
  if (const auto* i = e->as<ast::IfExp>())
    return producesList(i->body) || producesList(i->orelse);
  if (const auto* b = e->as<ast::BoolOp>())
    return std::any_of(b->values.begin(), b->values.end(),
                       [&](const ast::Expr* v) { return producesList(v); });
  if (const auto* t = e->as<ast::Tuple>())
    return std::any_of(t->elts.begin(), t->elts.end(),
                       [&](const ast::Expr* v) { return producesList(v); });
  if (const auto* sub = e->as<ast::Subscript>())
    return sub->slice->is<ast::Slice>() && producesList(sub->value);
  if (const auto* c = e->as<ast::Call>()) {
    if (!readsList(e) || importedQualifiedName(c->func, symbols_))
      return false; // numpy's and math's functions give no list
    static const std::set<std::string> converting = {"tuple",   "len", "sum",   "min",   "max",
                                                     "any",     "all", "int",   "float", "bool",
                                                     "complex", "abs", "round", "str"};
    if (const auto* n = c->func->as<ast::Name>(); n != nullptr && !lookup(n->id)) {
      const bool conversion = converting.count(n->id) != 0 && symbols_.find(n->id) == nullptr;
      if (conversion || functions_.count(n->id) != 0)
        return false; // a conversion, or a module function (whose list results are refused)
    }
    return true;
  }
  return false;
}

std::optional<FoldResult> Executor::newList(const ast::Expr* e) {
  if (e->is<ast::ListComp>())
    return fold(e);
  if (const auto* l = e->as<ast::List>()) {
    std::vector<ConstantValue> items;
    for (const ast::Expr* x : l->elts) {
      if (x->is<ast::Starred>())
        return FoldResult::notConstant("a starred item in a list is not folded");
      if (producesList(x) || x->is<ast::List>())
        return FoldResult::notConstant("a list inside a list is not folded");
      FoldResult r = fold(x);
      if (!r.isConstant())
        return r;
      items.push_back(r.value());
    }
    return FoldResult::constant(ConstantValue::tuple(std::move(items)));
  }
  if (const auto* c = e->as<ast::Call>()) {
    const auto* n = c->func->as<ast::Name>();
    if (n == nullptr || n->id != "list" || symbols_.find(n->id) || lookup(n->id) ||
        !c->keywords.empty() || c->args.size() > 1)
      return std::nullopt;
    if (c->args.empty())
      return FoldResult::constant(ConstantValue::tuple({}));
    std::string reason;
    std::optional<std::vector<ConstantValue>> items = iterationValues(c->args[0], reason);
    if (!items)
      return FoldResult::notConstant(reason);
    return FoldResult::constant(ConstantValue::tuple(std::move(*items)));
  }
  return std::nullopt;
}

Flow Executor::changeList(const std::string& name, SourceRange range, const std::string& why) {
  const std::string reason = "it is a list changed in a way pyk does not follow (" + why + ")";
  if (inFunction()) {
    frame().stopReason = reason;
    return Flow::Stop;
  }
  changeUnknown(name, reason, range);
  return Flow::Normal;
}

void Executor::listChanged(const std::string& name, SourceRange range) {
  Binding* b = bindingOf(name).second;
  b->range = range;
  spend(b->value.value());
  dependentsUnknown(name, "it may share the list `" + name + "`, which is changed after it", range);
}

Binding* Executor::ownList(const std::string& name, std::string& why) {
  Binding* b = bindingOf(name).second;
  if (!b->value.isConstant())
    why = b->value.reason();
  else if (!b->ownArray)
    why = "the list may be shared with another name";
  return why.empty() ? b : nullptr;
}

Flow Executor::extendList(const std::string& name, const ast::Expr* more, SourceRange range) {
  std::string why;
  Binding* b = ownList(name, why);
  if (b == nullptr)
    return changeList(name, range, why);
  std::optional<FoldResult> made = newList(more);
  std::optional<std::vector<ConstantValue>> items;
  if (made) {
    if (!made->isConstant())
      return changeList(name, range, made->reason());
    items = made->value().elements;
  } else {
    items = iterationValues(more, why);
    if (!items)
      return changeList(name, range, why);
  }
  std::vector<ConstantValue>& all = b->value.value().elements; // changed in place
  all.insert(all.end(), items->begin(), items->end());
  listChanged(name, range);
  return Flow::Normal;
}

std::optional<Flow> Executor::runListMethod(const ast::Call* c) {
  const auto* method = c->func->as<ast::Attribute>();
  const auto* n = method != nullptr ? method->value->as<ast::Name>() : nullptr;
  Binding* b = n != nullptr ? bindingOf(n->id).second : nullptr;
  if (b == nullptr || !b->list)
    return std::nullopt;
  const std::string& op = method->attr;
  const size_t arity = c->args.size();
  if (!c->keywords.empty())
    return changeList(n->id, c->range, "a method called with keyword arguments");
  if (op == "extend" && arity == 1)
    return extendList(n->id, c->args[0], c->range);
  std::string why;
  if (ownList(n->id, why) == nullptr)
    return changeList(n->id, c->range, why);
  std::vector<ConstantValue>& items = b->value.value().elements; // changed in place
  if ((op == "append" && arity == 1) || (op == "insert" && arity == 2)) {
    const ast::Expr* x = c->args.back();
    if (producesList(x) || x->is<ast::List>())
      return changeList(n->id, c->range, "a list inside a list is not folded");
    FoldResult v = fold(x);
    if (!v.isConstant())
      return changeList(n->id, c->range, v.reason());
    size_t at = items.size();
    if (op == "insert") {
      FoldResult i = fold(c->args[0]);
      if (!i.isConstant() || !isIntegral(i.value()))
        return changeList(n->id, c->range, "an insert position that is not a constant integer");
      const auto size = static_cast<__int128>(items.size());
      __int128 k = asInt(i.value());
      k = k < 0 ? std::max<__int128>(0, k + size) : std::min(k, size); // Python clamps
      at = static_cast<size_t>(k);
    }
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(at), v.value());
  } else if (op == "clear" && arity == 0) {
    items.clear();
  } else if (op == "reverse" && arity == 0) {
    std::reverse(items.begin(), items.end());
  } else {
    return changeList(n->id, c->range, "`list." + op + "` is not followed");
  }
  listChanged(n->id, c->range);
  return Flow::Normal;
}

bool Executor::storeListItem(const std::string& name, Binding& b, const ast::Subscript* s,
                             const FoldResult& value, SourceRange range, std::string& reason) {
  if (!ownList(name, reason))
    return false;
  FoldResult index = fold(s->slice);
  if (!value.isConstant() || !index.isConstant() || !isIntegral(index.value())) {
    reason = !value.isConstant()   ? value.reason()
             : !index.isConstant() ? index.reason()
                                   : "a list item is assigned through a slice";
    return false;
  }
  std::vector<ConstantValue>& items = b.value.value().elements; // changed in place
  const auto size = static_cast<__int128>(items.size());
  __int128 k = asInt(index.value());
  k = k < 0 ? k + size : k;
  if (k < 0 || k >= size) {
    reason = "a list is assigned out of its bounds (IndexError)";
    return false;
  }
  items[static_cast<size_t>(k)] = value.value();
  listChanged(name, range);
  return true;
}

} // namespace pyk::sema::execution
