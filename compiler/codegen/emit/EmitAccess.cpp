// EmitAccess: records, tuples, vectors and arrays as C++ — record fields (scalars, sub-arrays as
// views, nested records; a field of a whole record array as a view), vector members, named-tuple
// and tuple elements, complex parts, array metadata, array items (bounds-checked when asked;
// non-negative indices skipping Python's wrap) and array views made by slicing.
#include <functional>

#include "codegen/emit/UnitEmitter.h"
#include "sema/catalog/VectorTypes.h"

namespace pyk::codegen {

std::string UnitEmitter::visitTupleElement(const ir::TupleElement* t) {
  const size_t i = static_cast<size_t>(t->index);
  if (t->byField) // `p.x` of a named tuple
    return element(t->tuple->type, "(" + expr(t->tuple) + ")", i);
  return element(t->tuple->type, expr(t->tuple), i);
}

std::string UnitEmitter::visitTupleSubscript(const ir::TupleSubscript* t) {
  const std::string index = expr(t->index); // emitted first, as operands on the right are
  return expr(t->tuple) + ".e[pyk::tuple_index(" + index + ", " +
         std::to_string(t->tuple->type.elements().size()) + ")]";
}

std::string UnitEmitter::visitArrayAttribute(const ir::ArrayAttribute* a) {
  const NumbaType& base = a->array->type;
  const std::string v = expr(a->array);
  switch (a->member) {
  case sema::ValueMember::Size:
    return v + ".size()";
  case sema::ValueMember::Ndim:
    return std::to_string(base.ndim()) + "LL";
  case sema::ValueMember::CtypesData:
    if (a->type.isPointer()) // ffi.from_buffer(a): a CPointer to its items
      return "((" + type(a->type) + ")(" + v + ").data)";
    // numba's ArrayCTypes.data: the address as a uintp
    return "reinterpret_cast<pyk::uint64>((" + v + ").data)";
  case sema::ValueMember::Transpose:
    return base.ndim() == 1
               ? v
               : "pyk::transpose<pyk::Layout::" + std::string(types::layoutName(a->type.layout())) +
                     ">(" + v + ")";
  case sema::ValueMember::Shape:
  case sema::ValueMember::Strides: {
    const std::string member(sema::valueMemberInfo(a->member).name);
    std::string out = type(a->type) + "{{";
    for (int d = 0; d < base.ndim(); ++d)
      out += (d ? ", " : "") + v + "." + member + "[" + std::to_string(d) + "]";
    return out + "}}";
  }
  default:
    unsupported(a->range, "this attribute");
    return "0";
  }
}

std::string UnitEmitter::visitComplexPart(const ir::ComplexPart* p) {
  return realOrImag(expr(p->value), p->value->type, p->imaginary);
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

std::string UnitEmitter::visitVectorMember(const ir::VectorMember* m) {
  // pyk::vector's members are numba's x, y, z, w.
  return "(" + expr(m->vector) + ")." + std::string(sema::vectorMemberName(m->index));
}

// A record's field: a scalar member read or written in place; a nested record, a pointer to its
// member; a sub-array, a C-contiguous view of the member's items (numba's NestedArray).
std::string UnitEmitter::visitRecordField(const ir::RecordField* r) {
  const types::RecordField* f = r->record->type.recordLayout().field(r->field);
  const std::string member = "(" + expr(r->record) + ")->" + recordMemberName(r->field);
  if (unalignedComplex(*f) && !f->isSubArray())
    return member + ".load()"; // a read: visitFieldTarget stores into it
  if (f->kind == types::FieldKind::Scalar && !f->isSubArray())
    return member;
  if (!recordFieldAligned(*f)) {
    // numba's CUDA target refuses it too: "<record>.<field> of type ... is not aligned".
    unsupported(r->range, "the field `" + r->field + "` at offset " + std::to_string(f->offset) +
                              ", not aligned for its type,");
    return "0";
  }
  if (f->kind == types::FieldKind::Record)
    return "(&" + member + ")";
  if (!r->type.isArray()) {
    unsupported(r->range, "this record field");
    return "0";
  }
  return arrayView("&" + member + "[0]", r->type, f->shape);
}

// A field of every record of a record array (`a.x`, `a['x']`): a strided view at the field's
// offset, a sub-array field's dimensions after the array's.
std::string UnitEmitter::visitRecordArrayField(const ir::RecordArrayField* r) {
  const NumbaType& arrayType = r->array->type;
  const NumbaType& t = r->type;
  const types::RecordField* f = arrayType.recordLayout().field(r->field);
  std::string v = temp("fields"), src = temp("records");
  std::string out = "[&] {\n";
  out += "    const auto " + src + " = " + expr(r->array) + ";\n";
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
std::string UnitEmitter::visitArrayView(const ir::ArrayView* view) {
  const NumbaType& base = view->array->type;
  const NumbaType& t = view->type;
  const std::vector<ir::Expr*>& items = view->items;
  std::string v = temp("view"), src = temp("src"), p = temp("p");
  std::string out = "[&] {\n";
  out += "    const auto " + src + " = " + expr(view->array) + ";\n";
  out += "    " + type(t) + " " + v + "{};\n";
  out += "    char* " + p + " = reinterpret_cast<char*>(" + src + ".data);\n";
  int kept = 0;
  for (size_t d = 0; d < static_cast<size_t>(base.ndim()); ++d) {
    const std::string dim = std::to_string(d);
    if (d < items.size() && !items[d]->is<ir::Slice>()) {
      const NumbaType& it = items[d]->type;
      std::string index = "static_cast<pyk::int64>(" + expr(items[d]) + ")";
      if (it.isScalar() && types::isSignedInteger(it.scalarKind()))
        index = "pyk::tuple_index(" + index + ", " + src + ".shape[" + dim + "])";
      out += "    " + p + " += " + index + " * " + src + ".strides[" + dim + "];\n";
      continue;
    }
    const std::string k = std::to_string(kept++);
    if (d < items.size()) {
      const auto* sl = items[d]->as<ir::Slice>();
      auto part = [&](const ir::Expr* x) {
        return x == nullptr ? std::string("false, 0")
                            : "true, static_cast<pyk::int64>(" + expr(x) + ")";
      };
      std::string r = temp("range");
      // The parts emitted right to left, as operands on the right are.
      const std::string step = part(sl->step), upper = part(sl->upper), lower = part(sl->lower);
      out += "    const pyk::SliceRange " + r + " = pyk::slice_range(" + src + ".shape[" + dim +
             "], " + lower + ", " + upper + ", " + step + ");\n";
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

// The variables of the current function that hold the dynamic shared array
// (`cuda.shared.array(0, T)`) or a view of it, through assignments from one to another.
const std::set<sema::VariableId>& UnitEmitter::dynamicSharedVariables() {
  auto [it, fresh] = dynamicSharedVariables_.try_emplace(fn_);
  if (!fresh)
    return it->second;
  std::set<sema::VariableId>& variables = it->second;
  std::function<bool(const ir::Expr*)> dynamic = [&](const ir::Expr* e) {
    if (const auto* a = e->as<ir::ArrayAllocation>()) {
      int64_t count = 1;
      for (int64_t d : a->shape)
        count *= d;
      return a->intrinsic == sema::Intrinsic::SharedArray && count == 0;
    }
    if (const auto* v = e->as<ir::ArrayView>()) // a view of it
      return dynamic(v->array);
    const auto* r = e->as<ir::Read>();
    return r != nullptr && variables.count(r->variable.variable) != 0;
  };
  for (bool changed = true; changed;) {
    changed = false;
    ir::forEachNode(fn_->body, [&](const ir::Node* node) {
      const auto* a = node->as<ir::Assign>();
      if (a == nullptr || !dynamic(a->value))
        return;
      for (const ir::Target* target : a->targets)
        if (const auto* local = target->as<ir::LocalTarget>();
            local != nullptr && !fn_->variables[local->variable.variable].parameter)
          changed = variables.insert(local->variable.variable).second || changed;
    });
  }
  return variables;
}

// The versions of the current function that hold a shared array the block made (or a view of
// one): a definition assigning one, a phi of such versions only.
bool UnitEmitter::inBlockMemory(const ir::Expr* array) {
  auto [it, fresh] = blockMemoryVersions_.try_emplace(fn_);
  std::set<size_t>& versions = it->second;
  std::function<bool(const ir::Expr*)> shared = [&](const ir::Expr* e) {
    if (const auto* a = e->as<ir::ArrayAllocation>())
      return a->intrinsic == sema::Intrinsic::SharedArray;
    if (const auto* v = e->as<ir::ArrayView>())
      return shared(v->array);
    const auto* r = e->as<ir::Read>();
    return r != nullptr && versions.count(r->variable.version) != 0;
  };
  if (fresh) {
    std::map<size_t, const ir::Expr*> assigned; // a version, the value a store gave it
    ir::forEachNode(fn_->body, [&](const ir::Node* node) {
      auto note = [&](const ir::Target* t, const ir::Expr* value) {
        if (const auto* local = t->as<ir::LocalTarget>())
          assigned[local->variable.version] = value;
      };
      if (const auto* a = node->as<ir::Assign>())
        for (const ir::Target* t : a->targets)
          note(t, a->value);
      if (const auto* s = node->as<ir::Store>(); s != nullptr && !s->augmented)
        note(s->target, s->value);
    });
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t v = 0; v < fn_->versions.size(); ++v) {
        const ir::Version& version = fn_->versions[v];
        if (versions.count(v))
          continue;
        bool holds = false;
        if (version.kind == ir::Version::Kind::Def && assigned.count(v))
          holds = shared(assigned[v]);
        else if (version.kind == ir::Version::Kind::Phi && !version.inputs.empty())
          holds = std::all_of(version.inputs.begin(), version.inputs.end(),
                              [&](const ir::PhiInput& in) { return versions.count(in.version); });
        if (holds)
          changed = versions.insert(v).second || changed;
      }
    }
  }
  return shared(array);
}

std::string UnitEmitter::arrayElement(const ir::Expr* array, const std::string& indices) {
  if (array->type.isPointer()) // numba's CPointer: the item at the index, unchecked, as numba's
    return "(" + expr(array) + ")[" + indices + "]";
  // The dynamic shared array is as long as the launch made it: an index past its end is an error
  // the launch reports, not memory past the block's (on the CPU backend; CUDA leaves it unchecked
  // as numba does). Other arrays are checked only when bounds checking is on.
  const auto* read = array->as<ir::Read>();
  bool dynamicShared = false;
  if (!boundsCheck_ && target_.checksDynamicShared())
    dynamicShared = read != nullptr && !fn_->variables[read->variable.variable].parameter &&
                    dynamicSharedVariables().count(read->variable.variable) != 0;
  if (!boundsCheck_ && !dynamicShared)
    return expr(array) + "(" + indices + ")";
  // The message names the array (its Python name, when it has one), the source line and kernel.
  std::string name = "an array expression";
  if (read != nullptr)
    name = fn_->variableName(read->variable.variable);
  else if (const auto* c = array->as<ir::FrozenConstant>(); c != nullptr && !c->name.empty())
    name = c->name;
  const std::string where = fn_->sourcePath + ":" + std::to_string(array->range.begin.line) + ":" +
                            std::to_string(array->range.begin.column) + ": in `" + fn_->name + "`";
  return target_.checkedElement(expr(array), name, where, indices);
}

std::string UnitEmitter::arrayIndex(const ir::Expr* item) {
  const NumbaType& t = item->type;
  if (!t.isScalar() || !types::isSignedInteger(t.scalarKind()) || item->is<ir::Literal>())
    return expr(item);
  auto it = nonNegative_.find(fn_);
  if (it == nonNegative_.end())
    it = nonNegative_.emplace(fn_, NonNegativeAnalysis(*fn_)).first;
  return it->second.nonNegative(item) ? "pyk::nonneg(" + expr(item) + ")" : expr(item);
}

std::string UnitEmitter::indices(const ir::Expr* array, const std::vector<ir::Expr*>& items) {
  if (array->type.isPointer())
    return expr(items.at(0));
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + arrayIndex(items[i]);
  return out;
}

std::string UnitEmitter::visitArrayElement(const ir::ArrayElement* e) {
  const std::string at = indices(e->array, e->indices);
  if (e->type.isRecord()) // a record is referred to where it lies
    return "&" + arrayElement(e->array, at);
  return arrayElement(e->array, at);
}

} // namespace pyk::codegen
