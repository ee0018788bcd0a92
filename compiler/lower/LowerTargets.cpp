// LowerTargets: what an assignment stores to, as IR targets — a new version of a variable, an
// array item, a record field, an array view, a record item of a record array, or the elements of
// a tuple unpacked.
#include "lower/FunctionLowering.h"

namespace pyk::lower {

ir::Target* FunctionLowering::target(const ast::Expr* target, const NumbaType& valueType) {
  if (const auto* n = target->as<ast::Name>()) {
    // The version the store makes; its C++ variable is code generation's choice.
    const size_t v = scope_.versions.ofNameOr(n);
    const NumbaType* t = typeOf(n);
    if (v == sema::kNoVersion || spec_.versionType(v) == nullptr || t == nullptr) {
      unsupported(n->range, "this assignment");
      return nullptr;
    }
    auto* out = make<ir::LocalTarget>(n->range);
    out->type = *t;
    out->variable = versionRef(v);
    return out;
  }
  if (const auto* a = target->as<ast::Attribute>()) {
    const NumbaType* field = typeOf(a);
    if (field == nullptr) {
      unsupported(target->range, "this assignment target");
      return nullptr;
    }
    ir::Expr* place = expr(a);
    if (place == nullptr)
      return nullptr;
    auto* out = make<ir::FieldTarget>(a->range);
    out->type = *field;
    out->place = place;
    return out;
  }
  if (const auto* s = target->as<ast::Subscript>()) {
    const NumbaType* array = typeOf(s->value);
    const NumbaType* element = typeOf(s);
    if (array != nullptr && array->isRecord()) { // `r['x'] = v`
      if (element == nullptr) {
        unsupported(target->range, "this assignment target");
        return nullptr;
      }
      ir::Expr* place = expr(s);
      if (place == nullptr)
        return nullptr;
      auto* out = make<ir::FieldTarget>(s->range);
      out->type = *element;
      out->place = place;
      return out;
    }
    if (array != nullptr && array->isArray() && element != nullptr && element->isArray()) {
      ir::Expr* view = expr(s); // `a[1:3] = v`
      if (view == nullptr)
        return nullptr;
      auto* out = make<ir::ViewTarget>(s->range);
      out->type = *element;
      out->view = view;
      return out;
    }
    if (array != nullptr && array->isRecordArray() && element != nullptr && element->isRecord()) {
      ir::Expr* item = expr(s); // a whole record into an item: its bytes copied
      if (item == nullptr)
        return nullptr;
      auto* out = make<ir::RecordItemTarget>(s->range);
      out->type = *element;
      out->item = item;
      return out;
    }
    if (array != nullptr && array->isPointer()) { // `p[i] = v` of a CPointer
      auto* out = make<ir::ElementTarget>(s->range);
      out->type = NumbaType::scalar(array->scalarKind());
      out->array = expr(s->value);
      out->indices.push_back(exprAs(s->slice, ScalarKind::Int64));
      return out->array != nullptr && out->indices.back() != nullptr ? out : nullptr;
    }
    if (array == nullptr || !array->isArray() || array->isRecordArray()) {
      unsupported(target->range, "this assignment target");
      return nullptr;
    }
    const std::vector<const ast::Expr*> items = subscriptItems(s);
    if (static_cast<int>(items.size()) != array->ndim()) {
      unsupported(target->range, "assigning through a partial index or a slice");
      return nullptr;
    }
    auto* out = make<ir::ElementTarget>(s->range);
    out->type = array->elementType(); // (not a record: refused above)
    out->array = expr(s->value);
    bool ok = out->array != nullptr;
    for (const ast::Expr* item : items) {
      out->indices.push_back(expr(item));
      ok = ok && out->indices.back() != nullptr;
    }
    return ok ? out : nullptr;
  }
  if (target->is<ast::Tuple>() || target->is<ast::List>()) {
    const auto& elts =
        target->is<ast::Tuple>() ? target->as<ast::Tuple>()->elts : target->as<ast::List>()->elts;
    auto* out = make<ir::UnpackTarget>(target->range);
    out->type = valueType;
    bool ok = true;
    for (size_t i = 0; i < elts.size(); ++i) {
      out->elements.push_back(i < valueType.elements().size()
                                  ? this->target(elts[i], valueType.elements()[i])
                                  : nullptr);
      ok = ok && out->elements.back() != nullptr;
    }
    return ok ? out : nullptr;
  }
  unsupported(target->range, "this assignment target");
  return nullptr;
}

} // namespace pyk::lower
