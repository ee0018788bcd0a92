// EmitAccess: attributes and subscripts as C++ — array metadata, record fields, named-tuple and
// tuple items, complex parts, array elements (bounds-checked when asked; non-negative indices
// skipping Python's wrap) and array views made by slicing.
#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::visitAttribute(const ast::Attribute* a, const NumbaType* t) {
  if (const sema::Intrinsic id = spec_->intrinsicOf(a); id != sema::Intrinsic::None)
    return intrinsicValue(id, a);
  if (const std::string api = sema::qualifiedApiName(spec_->function->scope, a); !api.empty()) {
    unsupported(a->range, "`" + api + "` as a value");
    return "0";
  }
  const NumbaType* base = typeOf(a->value);
  if (base != nullptr && base->isRecord())
    return "(" + expr(a->value) + ")->" + recordMemberName(a->attr);
  if (base != nullptr && base->isNamedTuple())
    for (size_t i = 0; i < base->fieldNames().size(); ++i)
      if (base->fieldNames()[i] == a->attr)
        return element(*base, "(" + expr(a->value) + ")", i);
  if (base != nullptr && (base->isScalar() || base->isArray()) &&
      (a->attr == "real" || a->attr == "imag"))
    return realOrImag(expr(a->value), *base, a->attr == "imag");
  if (base != nullptr && base->isArray()) {
    std::string v = expr(a->value);
    if (a->attr == "size")
      return v + ".size()";
    if (a->attr == "ndim")
      return std::to_string(base->ndim()) + "LL";
    if (a->attr == "T" && t != nullptr && t->isArray())
      return base->ndim() == 1
                 ? v
                 : "pyk::transpose<pyk::Layout::" + std::string(sema::layoutName(t->layout())) +
                       ">(" + v + ")";
    if (a->attr == "shape" || a->attr == "strides") {
      std::string out = type(*t) + "{{";
      for (int d = 0; d < base->ndim(); ++d)
        out += (d ? ", " : "") + v + "." + a->attr + "[" + std::to_string(d) + "]";
      return out + "}}";
    }
  }
  unsupported(a->range, "this attribute");
  return "0";
}

std::string UnitEmitter::realOrImag(const std::string& value, const NumbaType& base,
                                    bool imaginary) {
  if (base.isArray()) // a complex array's parts; a real array's `.real` is itself
    return isComplexType(NumbaType::scalar(base.scalarKind()))
               ? "pyk::complex_part(" + value + ", " + (imaginary ? "1" : "0") + ")"
               : value;
  if (isComplexType(base))
    return "(" + value + ")." + (imaginary ? "im" : "re");
  if (!imaginary)
    return value;
  return "(static_cast<void>(" + value + "), " + type(base) + "(0))";
}

std::string UnitEmitter::visitSubscript(const ast::Subscript* s, const NumbaType* t) {
  const NumbaType* base = typeOf(s->value);
  if (base == nullptr || t == nullptr) {
    unsupported(s->range, "this subscript");
    return "0";
  }
  if (base->isRecord()) {
    const auto* k = s->slice->as<ast::Constant>();
    if (k == nullptr || k->valueKind != ast::ConstantKind::Str) {
      unsupported(s->range, "this record subscript");
      return "0";
    }
    return "(" + expr(s->value) + ")->" + recordMemberName(k->strValue);
  }
  if (base->isTuple()) {
    if (base->kind() == NumbaType::Kind::UniTuple)
      return expr(s->value) + ".e[pyk::tuple_index(" + expr(s->slice) + ", " +
             std::to_string(base->elements().size()) + ")]";
    const auto* k = s->slice->as<ast::Constant>();
    if (k == nullptr || k->valueKind != ast::ConstantKind::Int) {
      unsupported(s->range, "indexing a heterogeneous tuple with anything but a literal");
      return "0";
    }
    int64_t n = static_cast<int64_t>(base->elements().size());
    int64_t i = static_cast<int64_t>(k->intValue);
    return expr(s->value) + ".e" + std::to_string(i < 0 ? i + n : i);
  }
  std::vector<const ast::Expr*> items;
  if (const auto* tuple = s->slice->as<ast::Tuple>())
    items.assign(tuple->elts.begin(), tuple->elts.end());
  else
    items.push_back(s->slice);
  if (t->isArray())
    return arrayViewOf(s, *base, *t, items);
  std::string indices;
  for (size_t i = 0; i < items.size(); ++i)
    indices += (i ? ", " : "") + arrayIndex(items[i]);
  if (t->isRecord())
    return "&" + arrayElement(s->value, indices);
  return arrayElement(s->value, indices);
}

// A view: integer indices move the data pointer, slices take Python's slice.indices, dimensions
// not indexed are kept; shape and strides (bytes) are filled in.
std::string UnitEmitter::arrayViewOf(const ast::Subscript* s, const NumbaType& base,
                                     const NumbaType& t,
                                     const std::vector<const ast::Expr*>& items) {
  std::string v = temp("view"), src = temp("src"), p = temp("p");
  std::string out = "[&] {\n";
  out += "    const auto " + src + " = " + expr(s->value) + ";\n";
  out += "    " + type(t) + " " + v + "{};\n";
  out += "    char* " + p + " = reinterpret_cast<char*>(" + src + ".data);\n";
  int kept = 0;
  for (size_t d = 0; d < static_cast<size_t>(base.ndim()); ++d) {
    const std::string dim = std::to_string(d);
    if (d < items.size() && !items[d]->is<ast::Slice>()) {
      const NumbaType* it = typeOf(items[d]);
      std::string index = "static_cast<pyk::int64>(" + expr(items[d]) + ")";
      if (it != nullptr && it->isScalar() && sema::isSignedInteger(it->scalarKind()))
        index = "pyk::tuple_index(" + index + ", " + src + ".shape[" + dim + "])";
      out += "    " + p + " += " + index + " * " + src + ".strides[" + dim + "];\n";
      continue;
    }
    const std::string k = std::to_string(kept++);
    if (d < items.size()) {
      const auto* sl = items[d]->as<ast::Slice>();
      auto part = [&](const ast::Expr* x) {
        return x == nullptr ? std::string("false, 0")
                            : "true, static_cast<pyk::int64>(" + expr(x) + ")";
      };
      std::string r = temp("range");
      out += "    const pyk::SliceRange " + r + " = pyk::slice_range(" + src + ".shape[" + dim +
             "], " + part(sl->lower) + ", " + part(sl->upper) + ", " + part(sl->step) + ");\n";
      out += "    " + p + " += " + r + ".start * " + src + ".strides[" + dim + "];\n";
      out += "    " + v + ".shape[" + k + "] = " + r + ".length;\n";
      out +=
          "    " + v + ".strides[" + k + "] = " + r + ".step * " + src + ".strides[" + dim + "];\n";
    } else {
      out += "    " + v + ".shape[" + k + "] = " + src + ".shape[" + dim + "];\n";
      out += "    " + v + ".strides[" + k + "] = " + src + ".strides[" + dim + "];\n";
    }
  }
  out += "    " + v + ".data = reinterpret_cast<" + elementCpp(t) + "*>(" + p + ");\n";
  out += "    return " + v + ";\n  }()";
  return out;
}

std::string UnitEmitter::arrayElement(const ast::Expr* array, const std::string& indices) {
  if (!boundsCheck_)
    return expr(array) + "(" + indices + ")";
  // The message names the array (its Python name, when it has one), the source line and kernel.
  const auto* n = array->as<ast::Name>();
  const std::string where = sourcePath() + ":" + std::to_string(array->range.begin.line) + ":" +
                            std::to_string(array->range.begin.column) + ": in `" +
                            spec_->function->name + "`";
  return target_.checkedElement(expr(array), n != nullptr ? n->id : "an array expression", where,
                                indices);
}

std::string UnitEmitter::arrayIndex(const ast::Expr* item) {
  const NumbaType* t = typeOf(item);
  if (t == nullptr || !t->isScalar() || !sema::isSignedInteger(t->scalarKind()) ||
      item->is<ast::Constant>())
    return expr(item);
  auto it = nonNegative_.find(spec_);
  if (it == nonNegative_.end())
    it = nonNegative_.emplace(spec_, NonNegativeAnalysis(*spec_, definingModule())).first;
  return it->second.nonNegative(item) ? "pyk::nonneg(" + expr(item) + ")" : expr(item);
}

} // namespace pyk::codegen
