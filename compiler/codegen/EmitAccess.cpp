// EmitAccess: attributes and subscripts as C++ — array metadata, record fields (scalars,
// sub-arrays as views, nested records; a field of a whole record array as a view), vector
// members, named-tuple and tuple items, complex parts, array elements (bounds-checked when asked;
// non-negative indices skipping Python's wrap) and array views made by slicing.
#include <functional>

#include "codegen/UnitEmitter.h"
#include "sema/FunctionConstants.h"
#include "sema/VectorTypes.h"

namespace pyk::codegen {

std::string UnitEmitter::visitAttribute(const ast::Attribute* a, const NumbaType* t) {
  if (t != nullptr)
    if (std::optional<sema::ConstantValue> member =
            sema::enumMember(spec_->function->scope, definingModule().symbols, a))
      return constantValue(*member, *t, a->range); // `Color.red`
  if (const sema::Intrinsic id = spec_->intrinsicOf(a); id != sema::Intrinsic::None)
    return intrinsicValue(id, a);
  if (const std::string api = sema::qualifiedApiName(spec_->function->scope, a); !api.empty()) {
    unsupported(a->range, "`" + api + "` as a value");
    return "0";
  }
  const NumbaType* base = typeOf(a->value);
  if (base != nullptr && base->isRecord())
    return recordField(a->value, *base, a->attr, a->range);
  if (base != nullptr && base->isRecordArray() && t != nullptr && t->isArray() &&
      base->recordLayout().field(a->attr) != nullptr)
    return recordArrayField(a->value, *base, *t, a->attr);
  if (base != nullptr && base->isVector() && sema::vectorMemberIndex(*base, a->attr))
    return "(" + expr(a->value) + ")." + a->attr; // pyk::vector's members are numba's x, y, z, w
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
  if (t != nullptr)
    if (std::optional<sema::ConstantValue> member =
            sema::enumMember(spec_->function->scope, definingModule().symbols, s))
      return constantValue(*member, *t, s->range); // `Color['red']`
  const NumbaType* base = typeOf(s->value);
  if (base == nullptr || t == nullptr) {
    unsupported(s->range, "this subscript");
    return "0";
  }
  if (base->isRecord()) {
    const auto* k = s->slice->as<ast::Constant>();
    if (k != nullptr && k->valueKind == ast::ConstantKind::Int && k->intValue >= 0 &&
        k->intValue < static_cast<__int128>(base->recordLayout().fields.size()))
      return recordField(s->value, *base,
                         base->recordLayout().fields[static_cast<size_t>(k->intValue)].name,
                         s->range);
    if (k == nullptr || k->valueKind != ast::ConstantKind::Str) {
      unsupported(s->range, "this record subscript");
      return "0";
    }
    return recordField(s->value, *base, k->strValue, s->range);
  }
  if (base->isRecordArray() && t->isArray())
    if (const auto* k = s->slice->as<ast::Constant>(); k && k->valueKind == ast::ConstantKind::Str)
      return recordArrayField(s->value, *base, *t, k->strValue);
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

// A record's field: a scalar member read or written in place; a nested record, a pointer to its
// member; a sub-array, a C-contiguous view of the member's items (numba's NestedArray).
std::string UnitEmitter::recordField(const ast::Expr* record, const NumbaType& recordType,
                                     const std::string& name, SourceRange at) {
  const sema::RecordField* f = recordType.recordLayout().field(name);
  if (f == nullptr) {
    unsupported(at, "this record field");
    return "0";
  }
  const std::string member = "(" + expr(record) + ")->" + recordMemberName(name);
  if (f->kind == sema::FieldKind::Scalar && !f->isSubArray())
    return member;
  if (!recordFieldAligned(*f)) {
    // numba's CUDA target refuses it too: "<record>.<field> of type ... is not aligned".
    unsupported(at, "the field `" + name + "` at offset " + std::to_string(f->offset) +
                        ", not aligned for its type,");
    return "0";
  }
  if (f->kind == sema::FieldKind::Record)
    return "(&" + member + ")";
  std::optional<NumbaType> view = sema::recordFieldType(*f);
  if (!view || !view->isArray()) {
    unsupported(at, "this record field");
    return "0";
  }
  return arrayView("&" + member + "[0]", *view, f->shape);
}

// A field of every record of a record array (`a.x`, `a['x']`): a strided view at the field's
// offset, a sub-array field's dimensions after the array's.
std::string UnitEmitter::recordArrayField(const ast::Expr* array, const NumbaType& arrayType,
                                          const NumbaType& t, const std::string& name) {
  const sema::RecordField* f = arrayType.recordLayout().field(name);
  std::string v = temp("fields"), src = temp("records");
  std::string out = "[&] {\n";
  out += "    const auto " + src + " = " + expr(array) + ";\n";
  out += "    " + type(t) + " " + v + "{};\n";
  out += "    " + v + ".data = reinterpret_cast<" + elementCpp(t) + "*>(reinterpret_cast<char*>(" +
         src + ".data) + " + std::to_string(f->offset) + ");\n";
  for (int d = 0; d < arrayType.ndim(); ++d) {
    const std::string i = std::to_string(d);
    out += "    " + v + ".shape[" + i + "] = " + src + ".shape[" + i + "];\n";
    out += "    " + v + ".strides[" + i + "] = " + src + ".strides[" + i + "];\n";
  }
  int64_t stride = f->itemBytes();
  for (size_t k = f->shape.size(); k-- > 0;) {
    const std::string i = std::to_string(static_cast<size_t>(arrayType.ndim()) + k);
    out += "    " + v + ".shape[" + i + "] = " + std::to_string(f->shape[k]) + ";\n";
    out += "    " + v + ".strides[" + i + "] = " + std::to_string(stride) + ";\n";
    stride *= f->shape[k];
  }
  out += "    return " + v + ";\n  }()";
  return out;
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

// The locals of the current function that hold the dynamic shared array
// (`cuda.shared.array(0, T)`) or a view of it, through assignments from one to another.
const std::set<size_t>& UnitEmitter::dynamicSharedLocals() {
  auto [it, fresh] = dynamicSharedLocals_.try_emplace(spec_);
  if (!fresh)
    return it->second;
  std::set<size_t>& locals = it->second;
  const sema::FunctionScope& scope = spec_->function->scope;
  auto localOf = [&](const ast::Expr* e) -> std::optional<size_t> {
    const auto* n = e->as<ast::Name>();
    if (n == nullptr)
      return std::nullopt;
    auto b = scope.names.find(n);
    if (b == scope.names.end() || b->second.kind != sema::NameBinding::Kind::Local)
      return std::nullopt;
    return b->second.index;
  };
  std::function<bool(const ast::Expr*)> dynamic = [&](const ast::Expr* e) {
    if (const auto* c = e->as<ast::Call>();
        c != nullptr && spec_->intrinsicOf(c->func) == sema::Intrinsic::SharedArray) {
      const ast::Expr* shapeArg = c->args.empty() ? nullptr : c->args[0];
      for (const ast::Keyword& k : c->keywords)
        if (k.arg == "shape")
          shapeArg = k.value;
      if (shapeArg == nullptr)
        return false;
      const std::vector<int64_t> shape = constantShape(shapeArg);
      int64_t count = shape.empty() ? 1 : 0;
      if (!shape.empty()) {
        count = 1;
        for (int64_t d : shape)
          count *= d;
      }
      return count == 0;
    }
    if (const auto* s = e->as<ast::Subscript>()) // a view of it
      return typeOf(s) != nullptr && typeOf(s)->isArray() && dynamic(s->value);
    const std::optional<size_t> local = localOf(e);
    return local && locals.count(*local) != 0;
  };
  for (bool changed = true; changed;) {
    changed = false;
    ast::forEachNode(spec_->function->def, [&](const ast::Node* node) {
      const auto* a = node->as<ast::Assign>();
      if (a == nullptr || !dynamic(a->value))
        return;
      for (const ast::Expr* target : a->targets)
        if (const std::optional<size_t> local = localOf(target))
          changed = locals.insert(*local).second || changed;
    });
  }
  return locals;
}

std::string UnitEmitter::arrayElement(const ast::Expr* array, const std::string& indices) {
  // The dynamic shared array is as long as the launch made it: an index past its end is an error
  // the launch reports, not memory past the block's (on the CPU backend; CUDA leaves it unchecked
  // as numba does). Other arrays are checked only when bounds checking is on.
  bool dynamicShared = false;
  if (!boundsCheck_ && target_.checksDynamicShared()) {
    const auto* n = array->as<ast::Name>();
    auto b =
        n != nullptr ? spec_->function->scope.names.find(n) : spec_->function->scope.names.end();
    dynamicShared = b != spec_->function->scope.names.end() &&
                    b->second.kind == sema::NameBinding::Kind::Local &&
                    dynamicSharedLocals().count(b->second.index) != 0;
  }
  if (!boundsCheck_ && !dynamicShared)
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
