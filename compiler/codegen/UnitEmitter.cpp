// UnitEmitter: statements, expressions and calls, spelt for the unit's target.
#include "codegen/UnitEmitter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sema/ConstantFolder.h"

namespace pyk::codegen {

// ---- functions --------------------------------------------------------------------------------

std::vector<const Specialization*> UnitEmitter::reachedFrom(const Specialization& entry) {
  std::vector<const Specialization*> pending{&entry};
  std::vector<const Specialization*> reached;
  while (!pending.empty()) {
    const Specialization* s = pending.back();
    pending.pop_back();
    if (std::find(reached.begin(), reached.end(), s) != reached.end())
      continue;
    reached.push_back(s);
    for (const auto& [call, callee] : s->callees)
      pending.push_back(callee);
  }
  return reached;
}

std::string UnitEmitter::functions(const Specialization& entry,
                                   const std::vector<const Specialization*>& reached) {
  // Callees first (reverse discovery order); recursion needs the declarations.
  std::string declarations;
  for (const Specialization* s : reached) {
    if (s == &entry)
      continue;
    std::string params = target_.contextParameter();
    for (size_t i = 0; i < s->params.size(); ++i)
      params += (params.empty() ? "" : ", ") + type(s->params[i]);
    declarations +=
        target_.deviceFunctionHead(type(s->returnType)) + mangledName(*s) + "(" + params + ");\n";
  }
  for (auto it = reached.rbegin(); it != reached.rend(); ++it)
    function(**it, *it == &entry);
  return declarations.empty() ? "" : declarations + "\n";
}

void UnitEmitter::function(const Specialization& spec, bool entry) {
  spec_ = &spec;
  const sema::CompiledFunction& fn = *spec.function;
  const bool kernel = fn.kind == sema::CompiledFunctionKind::Kernel;
  std::ostringstream signature;
  signature << "// " << sema::nameOf(fn.kind) << ' ' << spec.describe() << '\n';
  lineDirective(fn.def);
  body_ << signature.str();
  std::string head =
      kernel ? target_.kernelHead(entry) : target_.deviceFunctionHead(type(spec.returnType));
  auto check = [&](const NumbaType& t, const std::string& name) {
    if (!supported(t))
      unsupported(fn.def->nameRange, "the type `" + t.str() + "` (of `" + name + "`)");
  };
  for (size_t i = 0; i < spec.params.size(); ++i)
    check(spec.params[i], fn.scope.params[i]);
  for (size_t i = 0; i < fn.scope.locals.size(); ++i)
    if (spec.localTypes[i])
      check(*spec.localTypes[i], fn.scope.locals[i]);
  if (!spec.returnType.isVoid())
    check(spec.returnType, "the return value");
  head += mangledName(spec) + "(";
  std::vector<std::string> params;
  if (!target_.contextParameter().empty())
    params.push_back(target_.contextParameter());
  for (size_t i = 0; i < spec.params.size(); ++i) {
    params.push_back(type(spec.params[i]) + " " + pythonName(fn.scope.params[i]));
    if (kernel && entry)
      entryParameterTypes_.push_back(type(spec.params[i]));
  }
  for (size_t i = 0; i < params.size(); ++i)
    head += (i ? ", " : "") + params[i];
  head += ") {";
  body_ << head << '\n';
  indent_ = 1;
  // Python scopes are per function: every local is declared once, at the top.
  for (size_t i = 0; i < fn.scope.locals.size(); ++i)
    if (spec.localTypes[i] && !spec.localTypes[i]->isVoid())
      line(type(*spec.localTypes[i]) + " " + pythonName(fn.scope.locals[i]) + "{};");
  block(fn.def->body);
  indent_ = 0;
  body_ << "}\n\n";
}

std::string UnitEmitter::vectorizeKernel(const Specialization& scalar) {
  std::string name = "pyk_u_" + mangledName(scalar).substr(std::string("pyk_d_").size());
  auto arrayOf = [&](const NumbaType& t) {
    return "pyk::Array<" + type(t) + ", 1, pyk::Layout::A>";
  };
  std::ostringstream k;
  k << "// ufunc kernel for " << scalar.describe() << '\n';
  k << target_.kernelHead(true) << name << "(" << contextParameterList();
  for (size_t i = 0; i < scalar.params.size(); ++i) {
    k << arrayOf(scalar.params[i]) << " in" << i << ", ";
    entryParameterTypes_.push_back(arrayOf(scalar.params[i]));
  }
  k << arrayOf(scalar.returnType) << " out) {\n";
  entryParameterTypes_.push_back(arrayOf(scalar.returnType));
  k << "  const pyk::int64 i = " << globalThreadIndex() << ";\n";
  k << "  if (i < out.shape[0])\n";
  k << "    out(i) = " << mangledName(scalar) << "(" << contextArgumentList(!scalar.params.empty());
  for (size_t i = 0; i < scalar.params.size(); ++i)
    k << (i ? ", " : "") << "in" << i << "(i)";
  k << ");\n}\n\n";
  body_ << k.str();
  return name;
}

std::string UnitEmitter::guvectorizeKernel(const Specialization& core) {
  std::string name = "pyk_g_" + mangledName(core).substr(std::string("pyk_d_").size());
  std::ostringstream k;
  k << "// gufunc kernel for " << core.describe() << '\n';
  k << target_.kernelHead(true) << name << "(" << contextParameterList(!core.params.empty());
  for (size_t i = 0; i < core.params.size(); ++i) {
    const NumbaType& p = core.params[i];
    const int ndim = p.isArray() ? p.ndim() + 1 : 1;
    std::string array = "pyk::Array<" + scalarCpp(p.scalarKind()) + ", " + std::to_string(ndim) +
                        ", pyk::Layout::A>";
    k << (i ? ", " : "") << array << " arg" << i;
    entryParameterTypes_.push_back(array);
  }
  k << ") {\n";
  k << "  const pyk::int64 i = " << globalThreadIndex() << ";\n";
  k << "  if (i >= arg0.shape[0])\n    return;\n";
  k << "  " << mangledName(core) << "(" << contextArgumentList(!core.params.empty());
  for (size_t i = 0; i < core.params.size(); ++i) {
    const NumbaType& p = core.params[i];
    std::string view = "pyk::first_index_view(arg" + std::to_string(i) + ", i)";
    if (p.isArray() && p.layout() != sema::ArrayLayout::A)
      view = "pyk::as_layout<pyk::Layout::" + std::string(sema::layoutName(p.layout())) + ">(" +
             view + ")";
    k << (i ? ", " : "") << (p.isArray() ? view : "arg" + std::to_string(i) + "(i)");
  }
  k << ");\n}\n\n";
  body_ << k.str();
  return name;
}

void UnitEmitter::block(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body)
    statement(s);
}

void UnitEmitter::statement(const ast::Stmt* s) {
  lineDirective(s);
  switch (s->kind) {
  case ast::NodeKind::ExprStmt: {
    const ast::Expr* v = s->as<ast::ExprStmt>()->value;
    if (v->is<ast::Constant>())
      return; // a docstring
    line(expr(v) + ";");
    return;
  }
  case ast::NodeKind::Assign: {
    const auto* a = s->as<ast::Assign>();
    const NumbaType* t = typeOf(a->value);
    if (t == nullptr)
      return unsupported(a->value->range, "this value");
    std::string value = expr(a->value);
    if (a->targets.size() > 1 || !a->targets[0]->is<ast::Name>()) {
      std::string tmp = temp("value");
      line("const " + type(*t) + " " + tmp + " = " + value + ";");
      value = tmp;
    }
    for (const ast::Expr* target : a->targets)
      assign(target, value, *t);
    return;
  }
  case ast::NodeKind::AugAssign: {
    const auto* a = s->as<ast::AugAssign>();
    const NumbaType* target = typeOf(a->target);
    const NumbaType* value = typeOf(a->value);
    if (target == nullptr || value == nullptr || !target->isScalar() || !value->isScalar())
      return unsupported(s->range, "this augmented assignment");
    std::optional<ScalarKind> k =
        sema::binaryResultType(a->op, target->scalarKind(), value->scalarKind());
    if (!k)
      return unsupported(s->range, "this augmented assignment");
    std::string result = binary(a->op, a->target, a->value, NumbaType::scalar(*k), s->range);
    assign(a->target, result, NumbaType::scalar(*k));
    return;
  }
  case ast::NodeKind::AnnAssign: {
    const auto* a = s->as<ast::AnnAssign>();
    if (a->value != nullptr && typeOf(a->value) != nullptr)
      assign(a->target, expr(a->value), *typeOf(a->value));
    return;
  }
  case ast::NodeKind::If: {
    const auto* i = s->as<ast::If>();
    line("if (" + truthy(i->test) + ") {");
    ++indent_;
    block(i->body);
    --indent_;
    if (!i->orelse.empty()) {
      line("} else {");
      ++indent_;
      block(i->orelse);
      --indent_;
    }
    line("}");
    return;
  }
  case ast::NodeKind::While: {
    const auto* w = s->as<ast::While>();
    std::string flag = w->orelse.empty() ? "" : temp("broke");
    if (!flag.empty())
      line("bool " + flag + " = false;");
    line("while (" + truthy(w->test) + ") {");
    ++indent_;
    breakFlags_.push_back(flag);
    block(w->body);
    breakFlags_.pop_back();
    --indent_;
    line("}");
    loopElse(flag, w->orelse);
    return;
  }
  case ast::NodeKind::For:
    forLoop(s->as<ast::For>());
    return;
  case ast::NodeKind::Return: {
    const auto* r = s->as<ast::Return>();
    if (r->value == nullptr || spec_->returnType.isVoid()) {
      line(spec_->function->kind == sema::CompiledFunctionKind::Kernel ? threadExit_ : "return;");
      return;
    }
    line("return " + castTo(r->value, spec_->returnType) + ";");
    return;
  }
  case ast::NodeKind::Pass:
    return;
  case ast::NodeKind::Break:
    if (!breakFlags_.empty() && !breakFlags_.back().empty())
      line(breakFlags_.back() + " = true;");
    line("break;");
    return;
  case ast::NodeKind::Continue:
    line("continue;");
    return;
  case ast::NodeKind::Assert:
  case ast::NodeKind::Raise: {
    // numba compiles these only with debug=True; without it they do nothing. With it, the
    // failing thread prints the exception, with its source location, and traps: the launch then
    // fails with an error the host sees.
    if (!spec_->function->options.debug.value_or(false))
      return;
    std::string where = sourcePath() + ":" + std::to_string(s->range.begin.line);
    std::string what = "AssertionError";
    std::string message;
    std::string condition = "true";
    if (const auto* a = s->as<ast::Assert>()) {
      condition = "!" + truthy(a->test);
      if (const auto* m = a->msg ? a->msg->as<ast::Constant>() : nullptr;
          m && m->valueKind == ast::ConstantKind::Str)
        message = m->strValue;
    } else if (const auto* r = s->as<ast::Raise>(); r->exc != nullptr) {
      const ast::Expr* exc = r->exc;
      const ast::Call* call = exc->as<ast::Call>();
      if (call != nullptr)
        exc = call->func;
      if (const auto* n = exc->as<ast::Name>())
        what = n->id;
      if (call != nullptr && !call->args.empty())
        if (const auto* m = call->args[0]->as<ast::Constant>();
            m && m->valueKind == ast::ConstantKind::Str)
          message = m->strValue;
    }
    std::string text = where + ": " + what + (message.empty() ? "" : ": " + message) + "\n";
    std::string literal;
    for (char ch : text) {
      if (ch == '\n') {
        literal += "\\n";
        continue;
      }
      if (ch == '"' || ch == '\\')
        literal += '\\';
      literal += ch == '%' ? std::string("%%") : std::string(1, ch);
    }
    line("if (" + condition + ") {");
    line("  printf(\"" + literal + "\");");
    line("  " + target_.trap());
    line("}");
    return;
  }
  default:
    unsupported(s->range, std::string("the statement `") + ast::nodeKindName(s->kind) + "`");
  }
}

void UnitEmitter::assign(const ast::Expr* target, const std::string& value,
                         const NumbaType& valueType) {
  if (const auto* n = target->as<ast::Name>()) {
    const NumbaType* t = typeOf(n);
    if (t == nullptr)
      return unsupported(n->range, "this assignment");
    line(variable(n->id) + " = " + cast(value, valueType, *t) + ";");
    return;
  }
  if (const auto* a = target->as<ast::Attribute>()) {
    const NumbaType* field = typeOf(a);
    if (field == nullptr)
      return unsupported(target->range, "this assignment target");
    line(expr(a) + " = " + cast(value, valueType, *field) + ";");
    return;
  }
  if (const auto* s = target->as<ast::Subscript>()) {
    const NumbaType* array = typeOf(s->value);
    if (array != nullptr && array->isRecord()) {
      const NumbaType* field = typeOf(s);
      if (field == nullptr)
        return unsupported(target->range, "this assignment target");
      line(expr(s) + " = " + cast(value, valueType, *field) + ";");
      return;
    }
    if (array == nullptr || !array->isArray() || array->isRecordArray())
      return unsupported(target->range, "this assignment target");
    std::string indices;
    std::vector<const ast::Expr*> items;
    if (const auto* tuple = s->slice->as<ast::Tuple>())
      items.assign(tuple->elts.begin(), tuple->elts.end());
    else
      items.push_back(s->slice);
    if (static_cast<int>(items.size()) != array->ndim())
      return unsupported(target->range, "assigning through a partial index or a slice");
    for (size_t i = 0; i < items.size(); ++i)
      indices += (i ? ", " : "") + arrayIndex(items[i]);
    line(arrayElement(s->value, indices) + " = " +
         cast(value, valueType, NumbaType::scalar(array->scalarKind())) + ";");
    return;
  }
  if (target->is<ast::Tuple>() || target->is<ast::List>()) {
    const auto& elts =
        target->is<ast::Tuple>() ? target->as<ast::Tuple>()->elts : target->as<ast::List>()->elts;
    for (size_t i = 0; i < elts.size(); ++i)
      assign(elts[i], element(valueType, value, i), valueType.elements()[i]);
    return;
  }
  unsupported(target->range, "this assignment target");
}

void UnitEmitter::forLoop(const ast::For* loop) {
  std::string flag = loop->orelse.empty() ? "" : temp("broke");
  if (!flag.empty())
    line("bool " + flag + " = false;");
  breakFlags_.push_back(flag);
  forLoopBody(loop);
  breakFlags_.pop_back();
  loopElse(flag, loop->orelse);
}

void UnitEmitter::forLoopBody(const ast::For* loop) {
  const ast::Expr* iter = loop->iter;
  const auto* call = iter->as<ast::Call>();
  const std::string callee = call != nullptr ? apiName(call->func) : "";
  if (callee == "range") {
    const ast::Call* c = call;
    // Python evaluates the bounds once and iterates a hidden counter: assigning to the loop
    // variable in the body does not change the iteration.
    NumbaType counter = NumbaType::scalar(ScalarKind::Int64);
    if (const NumbaType* t = typeOf(loop->target))
      counter = *t;
    std::string start = "0", stop, step = "1";
    const std::string ct = type(counter);
    if (c->args.size() == 1) {
      stop = castTo(c->args[0], counter);
    } else {
      start = castTo(c->args[0], counter);
      stop = castTo(c->args[1], counter);
      if (c->args.size() == 3)
        step = castTo(c->args[2], counter);
    }
    // A constant step (the usual case) gives a plain loop the device compiler can count and
    // unroll; a step known only at run time picks the comparison by its sign.
    int stepSign = 1;
    if (c->args.size() == 3) {
      const std::vector<int64_t> folded = constantShape(c->args[2]);
      stepSign = folded.size() == 1 && folded[0] != 0 ? (folded[0] > 0 ? 1 : -1) : 0;
    }
    // A short loop whose bounds are all constants (a tile's `for j in range(TPB)`) is unrolled
    // on the GPU (up to 32 trips), as a CUDA programmer would ask with `#pragma unroll`.
    int64_t trips = -1;
    {
      int64_t bounds[3] = {0, 0, 1};
      bool known = true;
      for (size_t a = 0; a < c->args.size() && known; ++a) {
        const std::vector<int64_t> v = constantShape(c->args[a]);
        known = v.size() == 1;
        if (known)
          bounds[c->args.size() == 1 ? 1 : a] = v[0];
      }
      if (known && bounds[2] != 0)
        trips = bounds[2] > 0 ? (bounds[1] - bounds[0] + bounds[2] - 1) / bounds[2]
                              : (bounds[0] - bounds[1] - bounds[2] - 1) / -bounds[2];
    }
    std::string i = temp("i"), end = temp("stop"), by = temp("step");
    line("{");
    ++indent_;
    line("const " + ct + " " + end + " = " + stop + ";");
    line("const " + ct + " " + by + " = " + step + ";");
    const std::string test = stepSign > 0 ? i + " < " + end
                             : stepSign < 0
                                 ? i + " > " + end
                                 : by + " > 0 ? " + i + " < " + end + " : " + i + " > " + end;
    if (target_.backend() == Backend::Cuda && trips > 0 && trips <= 32)
      line("#pragma unroll");
    line("for (" + ct + " " + i + " = " + start + "; " + test + "; " + i + " += " + by + ") {");
    ++indent_;
    assign(loop->target, i, counter);
    block(loop->body);
    --indent_;
    line("}");
    --indent_;
    line("}");
    return;
  }
  if (callee == "enumerate" || callee == "zip") {
    // Each argument a UniTuple or a 1-D array; the loop runs over the shortest.
    std::vector<std::string> seqs;
    std::vector<NumbaType> parts;
    if (callee == "enumerate")
      parts.push_back(NumbaType::scalar(ScalarKind::Int64));
    line("{");
    ++indent_;
    std::string length;
    std::vector<std::string> items;
    std::string i = temp("i");
    for (const ast::Expr* a : call->args) {
      const NumbaType* t = typeOf(a);
      if (t == nullptr ||
          !(t->kind() == NumbaType::Kind::UniTuple || (t->isArray() && t->ndim() == 1))) {
        --indent_;
        line("}");
        return unsupported(a->range, "iterating over this");
      }
      std::string seq = temp("seq");
      line("const " + type(*t) + " " + seq + " = " + expr(a) + ";");
      std::string n =
          t->isArray() ? seq + ".shape[0]" : std::to_string(t->elements().size()) + "LL";
      length = length.empty() ? n : "pyk::min<pyk::int64>(" + length + ", " + n + ")";
      items.push_back(t->isArray() ? seq + "(" + i + ")" : seq + ".e[" + i + "]");
      parts.push_back(t->isArray() ? NumbaType::scalar(t->scalarKind()) : t->elements()[0]);
    }
    if (callee == "enumerate")
      items.insert(items.begin(), i);
    bool uniform =
        std::all_of(parts.begin(), parts.end(), [&](const NumbaType& p) { return p == parts[0]; });
    NumbaType element = uniform ? NumbaType::uniTuple(parts[0], static_cast<int>(parts.size()))
                                : NumbaType::tuple(parts);
    line("for (pyk::int64 " + i + " = 0; " + i + " < " + length + "; ++" + i + ") {");
    ++indent_;
    std::vector<std::string> converted;
    for (size_t k = 0; k < items.size(); ++k)
      converted.push_back(
          cast(items[k],
               k == 0 && callee == "enumerate" ? NumbaType::scalar(ScalarKind::Int64) : parts[k],
               parts[k]));
    std::string value = tupleValue(element, converted);
    std::string tuple = temp("item");
    line("const " + type(element) + " " + tuple + " = " + value + ";");
    assign(loop->target, tuple, element);
    block(loop->body);
    --indent_;
    line("}");
    --indent_;
    line("}");
    return;
  }
  const NumbaType* t = typeOf(iter);
  if (t == nullptr)
    return unsupported(iter->range, "iterating over this");
  std::string seq = temp("seq"), i = temp("i");
  line("{");
  ++indent_;
  line("const " + type(*t) + " " + seq + " = " + expr(iter) + ";");
  if (t->kind() == NumbaType::Kind::UniTuple) {
    line("for (pyk::int64 " + i + " = 0; " + i + " < " + std::to_string(t->elements().size()) +
         "; ++" + i + ") {");
    ++indent_;
    assign(loop->target, seq + ".e[" + i + "]", t->elements()[0]);
  } else if (t->isArray() && t->ndim() == 1) {
    line("for (pyk::int64 " + i + " = 0; " + i + " < " + seq + ".shape[0]; ++" + i + ") {");
    ++indent_;
    assign(loop->target, seq + "(" + i + ")", NumbaType::scalar(t->scalarKind()));
  } else {
    --indent_;
    line("}");
    return unsupported(iter->range, "iterating over `" + t->str() + "`");
  }
  block(loop->body);
  --indent_;
  line("}");
  --indent_;
  line("}");
}

// ---- expressions ------------------------------------------------------------------------------

std::string UnitEmitter::apiName(const ast::Expr* e) const {
  return sema::qualifiedApiName(spec_->function->scope, e);
}

std::string UnitEmitter::cast(const std::string& code, const NumbaType& from, const NumbaType& to) {
  if (from == to)
    return code;
  if (to.isScalar() && from.isScalar()) {
    if (to.scalarKind() == ScalarKind::Boolean)
      return "(" + code + " != 0)";
    return "static_cast<" + type(to) + ">(" + code + ")";
  }
  if (to.isTuple() && from.isTuple() && to.elements().size() == from.elements().size()) {
    std::string tmp = "(" + code + ")";
    std::string out = type(to) + "{";
    for (size_t i = 0; i < to.elements().size(); ++i)
      out += (i ? ", " : "") + cast(element(from, tmp, i), from.elements()[i], to.elements()[i]);
    return out + "}";
  }
  if (to.isArray() && from.isArray())
    return "pyk::as_layout<pyk::Layout::" + std::string(sema::layoutName(to.layout())) + ">(" +
           code + ")";
  return code;
}

std::string UnitEmitter::truthy(const ast::Expr* e) {
  const NumbaType* t = typeOf(e);
  if (t == nullptr) {
    unsupported(e->range, "this condition");
    return "false";
  }
  if (t->isScalar() && t->scalarKind() == ScalarKind::Boolean)
    return expr(e);
  if (t->isScalar())
    return "(" + expr(e) + " != 0)";
  if (t->isTuple())
    return t->elements().empty() ? "false" : "true";
  unsupported(e->range, "this condition");
  return "false";
}

std::string UnitEmitter::binary(ast::BinOpKind op, const ast::Expr* l, const ast::Expr* r,
                                const NumbaType& result, SourceRange at) {
  const NumbaType* lt = typeOf(l);
  const NumbaType* rt = typeOf(r);
  if (lt == nullptr || rt == nullptr || !lt->isScalar() || !rt->isScalar() || !result.isScalar()) {
    unsupported(at, "this operation");
    return "0";
  }
  std::optional<ScalarKind> operand =
      sema::binaryOperandType(op, lt->scalarKind(), rt->scalarKind());
  if (!operand) {
    unsupported(at, "this operation");
    return "0";
  }
  NumbaType o = NumbaType::scalar(*operand);
  switch (op) {
  case ast::BinOpKind::Add:
  case ast::BinOpKind::Sub:
  case ast::BinOpKind::Mult:
  case ast::BinOpKind::BitAnd:
  case ast::BinOpKind::BitOr:
  case ast::BinOpKind::BitXor: {
    std::string expr = "(" + castTo(l, o) + " " + ast::toString(op) + " " + castTo(r, o) + ")";
    return cast(expr, o, result); // bool & bool computes in int, as C++ promotes
  }
  case ast::BinOpKind::Div:
    // numba converts integer operands of `/` to float64 first (TypeRules' operand type), so `/`
    // always divides floats or complex numbers here: by zero, inf or nan as in numba.
    return cast("(" + castTo(l, o) + " / " + castTo(r, o) + ")", o, result);
  case ast::BinOpKind::FloorDiv:
    return cast("pyk::floordiv(" + castTo(l, o) + ", " + castTo(r, o) + ")", o, result);
  case ast::BinOpKind::Mod:
    return cast("pyk::mod(" + castTo(l, o) + ", " + castTo(r, o) + ")", o, result);
  case ast::BinOpKind::Pow:
    if (isComplexType(result))
      return "pyk::cpow(" + castTo(l, result) + ", " + castTo(r, result) + ")";
    if (isFloating(result) && isIntegral(*rt))
      return "pyk::fpowi(" + castTo(l, result) + ", " + castScalar(r, ScalarKind::Int64) + ")";
    if (isFloating(result))
      return "pyk::fpow(" + castTo(l, result) + ", " + castTo(r, result) + ")";
    return "pyk::ipow(" + castTo(l, result) + ", " + castTo(r, result) + ")";
  case ast::BinOpKind::LShift:
    return "pyk::shl(" + castTo(l, result) + ", " + expr(r) + ")";
  case ast::BinOpKind::RShift:
    return "pyk::shr(" + castTo(l, result) + ", " + expr(r) + ")";
  default:
    unsupported(at, std::string("the operator `") + ast::toString(op) + "`");
    return "0";
  }
}

std::string UnitEmitter::expr(const ast::Expr* e) {
  const NumbaType* t = typeOf(e);
  // Every kind below but these needs the expression's type; one typing left without a type
  // (a `print(...)` used as a value, say) is reported, never dereferenced.
  const bool typeless =
      e->is<ast::Constant>() || e->is<ast::Name>() || e->is<ast::Call>() || e->is<ast::Compare>() ||
      e->is<ast::Subscript>() || e->is<ast::BinOp>() ||
      (e->is<ast::UnaryOp>() && e->as<ast::UnaryOp>()->op == ast::UnaryOpKind::Not) ||
      (e->is<ast::Attribute>() && !apiName(e).empty());
  if (t == nullptr && !typeless) {
    unsupported(e->range, "this expression here");
    return "0";
  }
  switch (e->kind) {
  case ast::NodeKind::Constant: {
    const auto* c = e->as<ast::Constant>();
    switch (c->valueKind) {
    case ast::ConstantKind::Bool:
      return c->boolValue ? "true" : "false";
    case ast::ConstantKind::Int:
      return int128Literal(c->intValue, t != nullptr ? t->scalarKind() : ScalarKind::Int64);
    case ast::ConstantKind::Float:
      return doubleLiteral(c->floatValue);
    case ast::ConstantKind::Complex:
      return "pyk::complex128{0.0, " + doubleLiteral(c->floatValue) + "}";
    default:
      unsupported(e->range, "this constant");
      return "0";
    }
  }
  case ast::NodeKind::Name: {
    const auto* n = e->as<ast::Name>();
    auto it = spec_->function->scope.names.find(n);
    if (it == spec_->function->scope.names.end()) {
      unsupported(e->range, "this name");
      return "0";
    }
    const sema::NameBinding& b = it->second;
    if (b.kind == sema::NameBinding::Kind::ModuleConstant && t != nullptr)
      return constantValue(definingModule().symbols.constants()[b.index].value, *t, e->range);
    if (b.kind == sema::NameBinding::Kind::Builtin)
      return n->id == "True" ? "true" : "false";
    return variable(n->id);
  }
  case ast::NodeKind::Attribute: {
    const auto* a = e->as<ast::Attribute>();
    std::string api = apiName(a);
    if (!api.empty()) {
      for (const char* which : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
        for (char axis : {'x', 'y', 'z'})
          if (api == std::string("numba.cuda.") + which + "." + axis)
            return "static_cast<pyk::int32>(" + target_.builtinIndex(which, axis) + ")";
      if (api == "numba.cuda.warpsize")
        return "static_cast<pyk::int32>(" + target_.warpSize() + ")";
      if (api == "numba.cuda.laneid")
        return target_.threadOperation("laneid", {});
      if (api == "math.pi")
        return "3.141592653589793";
      if (api == "math.e")
        return "2.718281828459045";
      if (api == "math.tau")
        return "6.283185307179586";
      if (api == "math.inf")
        return doubleLiteral(HUGE_VAL);
      if (api == "math.nan")
        return doubleLiteral(std::nan(""));
      unsupported(e->range, "`" + api + "` as a value");
      return "0";
    }
    const NumbaType* base = typeOf(a->value);
    if (base != nullptr && base->isRecord())
      return "(" + expr(a->value) + ")->" + recordMemberName(a->attr);
    if (base != nullptr && base->isNamedTuple())
      for (size_t i = 0; i < base->fieldNames().size(); ++i)
        if (base->fieldNames()[i] == a->attr)
          return element(*base, "(" + expr(a->value) + ")", i);
    if (base != nullptr && isComplexType(*base) && (a->attr == "real" || a->attr == "imag"))
      return "(" + expr(a->value) + ")." + (a->attr == "real" ? "re" : "im");
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
    unsupported(e->range, "this attribute");
    return "0";
  }
  case ast::NodeKind::Subscript: {
    const auto* s = e->as<ast::Subscript>();
    const NumbaType* base = typeOf(s->value);
    if (base == nullptr || t == nullptr) {
      unsupported(e->range, "this subscript");
      return "0";
    }
    if (base->isRecord()) {
      const auto* k = s->slice->as<ast::Constant>();
      if (k == nullptr || k->valueKind != ast::ConstantKind::Str) {
        unsupported(e->range, "this record subscript");
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
        unsupported(e->range, "indexing a heterogeneous tuple with anything but a literal");
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
    if (t->isArray()) {
      // A view: integer indices move the data pointer, slices take Python's slice.indices,
      // dimensions not indexed are kept; shape and strides (bytes) are filled in.
      std::string v = temp("view"), src = temp("src"), p = temp("p");
      std::string out = "[&] {\n";
      out += "    const auto " + src + " = " + expr(s->value) + ";\n";
      out += "    " + type(*t) + " " + v + "{};\n";
      out += "    char* " + p + " = reinterpret_cast<char*>(" + src + ".data);\n";
      int kept = 0;
      for (size_t d = 0; d < static_cast<size_t>(base->ndim()); ++d) {
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
          out += "    " + v + ".strides[" + k + "] = " + r + ".step * " + src + ".strides[" + dim +
                 "];\n";
        } else {
          out += "    " + v + ".shape[" + k + "] = " + src + ".shape[" + dim + "];\n";
          out += "    " + v + ".strides[" + k + "] = " + src + ".strides[" + dim + "];\n";
        }
      }
      out += "    " + v + ".data = reinterpret_cast<" + elementCpp(*t) + "*>(" + p + ");\n";
      out += "    return " + v + ";\n  }()";
      return out;
    }
    std::string indices;
    for (size_t i = 0; i < items.size(); ++i)
      indices += (i ? ", " : "") + arrayIndex(items[i]);
    if (t->isRecord())
      return "&" + arrayElement(s->value, indices);
    return arrayElement(s->value, indices);
  }
  case ast::NodeKind::BinOp: {
    const auto* b = e->as<ast::BinOp>();
    if (t == nullptr) {
      unsupported(e->range, "this operation");
      return "0";
    }
    return binary(b->op, b->left, b->right, *t, e->range);
  }
  case ast::NodeKind::UnaryOp: {
    const auto* u = e->as<ast::UnaryOp>();
    if (u->op == ast::UnaryOpKind::Not)
      return "(!" + truthy(u->operand) + ")";
    if (t == nullptr)
      return "0";
    std::string v = castTo(u->operand, *t);
    if (u->op == ast::UnaryOpKind::USub)
      return "(-" + v + ")";
    if (u->op == ast::UnaryOpKind::UAdd)
      return "(+" + v + ")";
    if (t->scalarKind() == ScalarKind::Boolean)
      return "(!" + v + ")";
    return cast("(~" + v + ")", *t, *t);
  }
  case ast::NodeKind::Compare: {
    const auto* c = e->as<ast::Compare>();
    std::string out;
    const ast::Expr* left = c->left;
    for (size_t i = 0; i < c->ops.size(); ++i) {
      const ast::Expr* right = c->comparators[i];
      const NumbaType* lt = typeOf(left);
      const NumbaType* rt = typeOf(right);
      if (lt == nullptr || rt == nullptr || !lt->isScalar() || !rt->isScalar()) {
        unsupported(e->range, "this comparison");
        return "false";
      }
      std::optional<ScalarKind> k =
          sema::comparisonOperandType(c->ops[i], lt->scalarKind(), rt->scalarKind());
      static const char* const kOps[] = {"==", "!=", "<", "<=", ">", ">="};
      size_t opIndex = static_cast<size_t>(c->ops[i]);
      if (!k || opIndex >= 6) {
        unsupported(e->range, "this comparison");
        return "false";
      }
      std::string part =
          "(" + castScalar(left, *k) + " " + kOps[opIndex] + " " + castScalar(right, *k) + ")";
      out += (i ? " && " : "") + part;
      left = right;
    }
    return c->ops.size() > 1 ? "(" + out + ")" : out;
  }
  case ast::NodeKind::BoolOp: {
    const auto* b = e->as<ast::BoolOp>();
    const bool all_bool = t != nullptr && t->isScalar() && t->scalarKind() == ScalarKind::Boolean;
    if (all_bool) {
      std::string out;
      for (size_t i = 0; i < b->values.size(); ++i)
        out += (i ? (b->op == ast::BoolOpKind::And ? " && " : " || ") : "") + truthy(b->values[i]);
      return "(" + out + ")";
    }
    // Python's value semantics: `a and b` is a if a is false, else b (in the unified type).
    std::string out = castTo(b->values.back(), *t);
    for (size_t i = b->values.size() - 1; i-- > 0;) {
      std::string v = temp("v");
      std::string value = castTo(b->values[i], *t);
      out = "[&] { const " + type(*t) + " " + v + " = " + value + "; return " + v +
            (b->op == ast::BoolOpKind::And ? " ? " + out + " : " + v : " ? " + v + " : " + out) +
            "; }()";
    }
    return out;
  }
  case ast::NodeKind::IfExp: {
    const auto* i = e->as<ast::IfExp>();
    return "(" + truthy(i->test) + " ? " + castTo(i->body, *t) + " : " + castTo(i->orelse, *t) +
           ")";
  }
  case ast::NodeKind::Tuple: {
    const auto* tu = e->as<ast::Tuple>();
    std::vector<std::string> elements;
    for (size_t i = 0; i < tu->elts.size(); ++i)
      elements.push_back(castTo(tu->elts[i], t->elements()[i]));
    return tupleValue(*t, elements);
  }
  case ast::NodeKind::Call:
    return call(e->as<ast::Call>());
  default:
    unsupported(e->range, std::string("the expression `") + ast::nodeKindName(e->kind) + "`");
    return "0";
  }
}

std::string UnitEmitter::constantValue(const sema::ConstantValue& v, const NumbaType& t,
                                       SourceRange at) {
  switch (v.kind) {
  case sema::ConstantValue::Kind::Bool:
    return v.boolValue ? "true" : "false";
  case sema::ConstantValue::Kind::Int:
    return int128Literal(v.intValue, t.scalarKind());
  case sema::ConstantValue::Kind::Float:
    return cast(doubleLiteral(v.floatValue), NumbaType::scalar(ScalarKind::Float64), t);
  case sema::ConstantValue::Kind::Tuple: {
    std::vector<std::string> elements;
    for (size_t i = 0; i < v.elements.size(); ++i)
      elements.push_back(constantValue(v.elements[i], t.elements()[i], at));
    return tupleValue(t, elements);
  }
  case sema::ConstantValue::Kind::Array: {
    // A module-level numpy array: frozen into __constant__ memory, read through a view.
    const sema::ConstantArray& a = *v.array;
    if (auto it = constantArrays_.find(&a); it != constantArrays_.end())
      return arrayView("const_cast<" + scalarCpp(a.dtype) + "*>(" + it->second + ")", t, a.shape);
    std::string name = "pyk_constant_" + std::to_string(constantArrays_.size());
    std::ostringstream s;
    s << target_.constantArrayQualifier() << scalarCpp(a.dtype) << " " << name << "["
      << a.values.size() << "] = {";
    for (size_t i = 0; i < a.values.size(); ++i) {
      const sema::ConstantValue& x = a.values[i];
      s << (i ? ", " : "")
        << (x.kind == sema::ConstantValue::Kind::Float  ? doubleLiteral(x.floatValue)
            : x.kind == sema::ConstantValue::Kind::Bool ? (x.boolValue ? "true" : "false")
                                                        : int128Literal(x.intValue, a.dtype));
    }
    s << "};\n\n";
    prelude_ << s.str();
    constantArrays_[&a] = name;
    return arrayView("const_cast<" + scalarCpp(a.dtype) + "*>(" + name + ")", t, a.shape);
  }
  default:
    unsupported(at, "this constant");
    return "0";
  }
}

std::string UnitEmitter::arrayView(const std::string& storage, const NumbaType& t,
                                   const std::vector<int64_t>& shape) {
  // C-contiguous: strides in bytes from the last dimension up.
  std::vector<int64_t> strides(shape.size());
  int64_t stride = static_cast<int64_t>(sema::bitWidth(t.scalarKind()) / 8);
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  std::string out = type(t) + "{" + storage + ", {";
  for (size_t d = 0; d < shape.size(); ++d)
    out += (d ? ", " : "") + std::to_string(shape[d]) + "LL";
  out += "}, {";
  for (size_t d = 0; d < strides.size(); ++d)
    out += (d ? ", " : "") + std::to_string(strides[d]) + "LL";
  return out + "}}";
}

std::vector<int64_t> UnitEmitter::constantShape(const ast::Expr* e) {
  DiagnosticEngine quiet;
  sema::ConstantFolder folder(definingModule().symbols, quiet);
  sema::FoldResult r = folder.fold(e);
  std::vector<int64_t> shape;
  if (!r.isConstant())
    return shape;
  if (r.value().kind == sema::ConstantValue::Kind::Int)
    shape.push_back(static_cast<int64_t>(r.value().intValue));
  for (const sema::ConstantValue& x : r.value().elements)
    shape.push_back(static_cast<int64_t>(x.intValue));
  return shape;
}

// `Point(x, y=...)`: the fields in declaration order, each converted to its element type.
std::string UnitEmitter::namedTupleConstruction(const ast::Call* c, const sema::ConstantValue& cls,
                                                const NumbaType& t) {
  std::vector<std::string> fields = cls.fieldNames();
  std::vector<const ast::Expr*> values(fields.size(), nullptr);
  for (size_t i = 0; i < c->args.size() && i < values.size(); ++i)
    values[i] = c->args[i];
  for (const ast::Keyword& k : c->keywords)
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == k.arg)
        values[i] = k.value;
  std::vector<std::string> elements;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == nullptr) {
      unsupported(c->range, "this named tuple construction");
      return "0";
    }
    elements.push_back(castTo(values[i], t.elements()[i]));
  }
  return tupleValue(t, elements);
}

std::string UnitEmitter::call(const ast::Call* c) {
  if (auto it = spec_->callees.find(c); it != spec_->callees.end()) {
    const Specialization* callee = it->second;
    std::string out = mangledName(*callee) + "(" + contextArgumentList(!c->args.empty());
    for (size_t i = 0; i < c->args.size(); ++i)
      out += (i ? ", " : "") + castTo(c->args[i], callee->params[i]);
    return out + ")";
  }
  if (const auto* n = c->func->as<ast::Name>()) {
    auto it = spec_->function->scope.names.find(n);
    if (it != spec_->function->scope.names.end() &&
        it->second.kind == sema::NameBinding::Kind::ModuleConstant) {
      const sema::ConstantValue& v = definingModule().symbols.constants()[it->second.index].value;
      const NumbaType* t = typeOf(c);
      if (v.kind == sema::ConstantValue::Kind::NamedTupleClass && t != nullptr)
        return namedTupleConstruction(c, v, *t);
    }
  }
  std::string api = apiName(c->func);
  if (api.empty()) {
    // `z.conjugate()` of a complex number.
    if (const auto* a = c->func->as<ast::Attribute>(); a != nullptr && a->attr == "conjugate") {
      const NumbaType* z = typeOf(a->value);
      if (z != nullptr && isComplexType(*z))
        return "[&] { const auto w = " + expr(a->value) + "; return " + type(*z) +
               "(w.re, -w.im); }()";
    }
    // `g.sync()` on a grid group (typing allows no other method call).
    if (const auto* a = c->func->as<ast::Attribute>(); a != nullptr && a->attr == "sync") {
      const NumbaType* g = typeOf(a->value);
      bool direct = false;
      if (const auto* inner = a->value->as<ast::Call>())
        direct = apiName(inner->func) == "numba.cuda.cg.this_grid";
      if (direct || (g != nullptr && g->kind() == NumbaType::Kind::GridGroup)) {
        usesGridSync_ = true;
        return target_.gridSync();
      }
    }
    unsupported(c->range, "this call");
    return "0";
  }
  return apiCall(api, c);
}

std::string UnitEmitter::apiCall(const std::string& api, const ast::Call* c) {
  const NumbaType* t = typeOf(c);
  auto arg = [&](size_t i) { return expr(c->args[i]); };
  auto argAs = [&](size_t i, const NumbaType& to) { return castTo(c->args[i], to); };
  auto argType = [&](size_t i) -> NumbaType {
    const NumbaType* a = typeOf(c->args[i]);
    return a ? *a : NumbaType();
  };
  const std::string cuda = "numba.cuda.";
  // Only print has no type of its own (its string arguments have none); any other call typing
  // left without one cannot be generated.
  if (t == nullptr && api != "print") {
    unsupported(c->range, "this call here");
    return "0";
  }

  if (api == cuda + "grid" || api == cuda + "gridsize") {
    const bool size = api == cuda + "gridsize";
    auto axis = [&](char d) {
      return size ? "(static_cast<pyk::int64>(" + target_.builtinIndex("blockDim", d) + ") * " +
                        target_.builtinIndex("gridDim", d) + ")"
                  : "(static_cast<pyk::int64>(" + target_.builtinIndex("blockIdx", d) + ") * " +
                        target_.builtinIndex("blockDim", d) + " + " +
                        target_.builtinIndex("threadIdx", d) + ")";
    };
    if (t == nullptr)
      return "0";
    if (t->isScalar())
      return axis('x');
    std::string out = type(*t) + "{{" + axis('x') + ", " + axis('y');
    if (t->elements().size() == 3)
      out += ", " + axis('z');
    return out + "}}";
  }
  if (api == cuda + "cg.this_grid")
    return "pyk::GridGroup{}";
  if (api == cuda + "syncthreads")
    return target_.threadOperation("syncthreads", {});
  if (api == cuda + "syncthreads_count" || api == cuda + "syncthreads_and" ||
      api == cuda + "syncthreads_or")
    return target_.threadOperation(api.substr(cuda.size()), {truthy(c->args[0])});
  if (api == cuda + "syncwarp")
    return target_.threadOperation(
        "syncwarp", {c->args.empty() ? std::string("0xFFFFFFFFu")
                                     : argAs(0, NumbaType::scalar(ScalarKind::UInt32))});
  if (api == cuda + "threadfence" || api == cuda + "threadfence_block" ||
      api == cuda + "threadfence_system")
    return target_.threadOperation(api.substr(cuda.size()), {});

  if (api == cuda + "shared.array" || api == cuda + "local.array") {
    const ast::Expr* shapeArg = c->args.empty() ? nullptr : c->args[0];
    for (const ast::Keyword& k : c->keywords)
      if (k.arg == "shape")
        shapeArg = k.value;
    std::vector<int64_t> shape = shapeArg ? constantShape(shapeArg) : std::vector<int64_t>{};
    if (t == nullptr || shape.empty()) {
      unsupported(c->range, "this array");
      return "0";
    }
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    if (count == 0 && api == cuda + "shared.array")
      return target_.dynamicSharedArray(scalarCpp(t->scalarKind()));
    if (count == 0) {
      unsupported(c->range, "a local array of size 0");
      return "0";
    }
    std::string name = temp(api == cuda + "shared.array" ? "shared" : "local");
    if (api == cuda + "shared.array")
      line(target_.sharedStorage(scalarCpp(t->scalarKind()), name, count,
                                 sharedOffsetOf(c, count * (sema::bitWidth(t->scalarKind()) / 8))));
    else
      line(scalarCpp(t->scalarKind()) + " " + name + "[" + std::to_string(count) + "];");
    return arrayView(name, *t, shape);
  }
  if (api == cuda + "const.array_like") {
    if (t == nullptr)
      return "0";
    return expr(c->args[0]); // the frozen module array is already a constant view
  }

  if (api.rfind(cuda + "atomic.", 0) == 0) {
    std::string op = api.substr((cuda + "atomic.").size());
    const NumbaType array = argType(0);
    if (!array.isArray() || t == nullptr) {
      unsupported(c->range, "this atomic");
      return "0";
    }
    const NumbaType elem = NumbaType::scalar(array.scalarKind());
    std::string place;
    size_t valueAt = 2;
    if (op == "compare_and_swap") {
      place = "&" + arrayElement(c->args[0], "0LL");
      valueAt = 1;
    } else {
      const NumbaType index = argType(1);
      std::string idx;
      if (index.isTuple()) {
        std::string tmp = arg(1);
        for (size_t d = 0; d < index.elements().size(); ++d)
          idx += (d ? ", " : "") + element(index, tmp, d);
      } else {
        idx = arg(1);
      }
      place = "&" + arrayElement(c->args[0], idx);
    }
    // CUDA's atomics take unsigned long long for 64-bit integers; pyk_support.h's wrappers keep
    // numba's element type.
    static const std::set<std::string> kOps = {
        "add", "sub", "max",  "min", "nanmax", "nanmin", "and_",
        "or_", "xor", "exch", "inc", "dec",    "cas",    "compare_and_swap"};
    if (!kOps.count(op)) {
      unsupported(c->range, "`cuda.atomic." + op + "`");
      return "0";
    }
    std::string name = op == "and_"               ? "and"
                       : op == "or_"              ? "or"
                       : op == "compare_and_swap" ? "cas"
                                                  : op;
    if ((op == "max" || op == "min") && isFloating(elem))
      name = "f" + op; // a compare-and-swap loop with numba's NaN rules
    if ((op == "nanmax" || op == "nanmin") && !isFloating(elem))
      name = op.substr(3); // no NaN among integers: plain max/min
    std::string out = "pyk::atomic_" + name + "(" + place;
    for (size_t i = valueAt; i < c->args.size(); ++i)
      out += ", " + argAs(i, elem);
    return out + ")";
  }

  // Warp-level and integer intrinsics.
  const NumbaType u32 = NumbaType::scalar(ScalarKind::UInt32);
  auto op = [&](const std::string& name, const std::vector<std::string>& args) {
    return target_.threadOperation(name, args);
  };
  if (api == cuda + "activemask")
    return "static_cast<pyk::uint32>(" + op("activemask", {}) + ")";
  if (api == cuda + "lanemask_lt")
    return op("lanemask_lt", {});
  if (api == cuda + "all_sync" || api == cuda + "any_sync")
    return "static_cast<bool>(" + op(api.substr(cuda.size()), {argAs(0, u32), truthy(c->args[1])}) +
           ")";
  if (api == cuda + "ballot_sync")
    return "static_cast<pyk::int32>(" + op("ballot_sync", {argAs(0, u32), truthy(c->args[1])}) +
           ")";
  if (api == cuda + "shfl_sync" || api == cuda + "shfl_up_sync" || api == cuda + "shfl_down_sync" ||
      api == cuda + "shfl_xor_sync")
    return op(api.substr(cuda.size()),
              {argAs(0, u32), arg(1), argAs(2, NumbaType::scalar(ScalarKind::Int32))});
  if (api == cuda + "match_any_sync")
    return "static_cast<pyk::int32>(" + op("match_any_sync", {argAs(0, u32), arg(1)}) + ")";
  if (api == cuda + "match_all_sync")
    return "[&] { int pred = 0; const unsigned int lanes = " +
           op("match_all_sync", {argAs(0, u32), arg(1), "&pred"}) + "; return " + type(*t) +
           "{static_cast<pyk::int32>(lanes), pred != 0}; }()";
  if (api == cuda + "eq_sync") {
    // True when the predicate is the same on every thread of the mask (vote.uni).
    std::string mask = temp("mask"), p = temp("p");
    return "[&] { const pyk::uint32 " + mask + " = " + argAs(0, u32) + "; const bool " + p + " = " +
           truthy(c->args[1]) + "; return static_cast<bool>(" + op("all_sync", {mask, p}) +
           " || !" + op("any_sync", {mask, p}) + "); }()";
  }
  if (api == cuda + "popc" || api == cuda + "clz" || api == cuda + "ffs" || api == cuda + "brev") {
    const NumbaType a = argType(0);
    const bool wide = a.isScalar() && sema::bitWidth(a.scalarKind()) == 64;
    return "static_cast<" + type(*t) + ">(" +
           target_.bitOperation(api.substr(cuda.size()), wide, arg(0)) + ")";
  }
  if (api == cuda + "fma")
    return std::string(argType(0).scalarKind() == ScalarKind::Float32 ? "fmaf(" : "fma(") + arg(0) +
           ", " + arg(1) + ", " + arg(2) + ")";
  if (api == cuda + "cbrt")
    return std::string(argType(0).scalarKind() == ScalarKind::Float32 ? "cbrtf(" : "cbrt(") +
           arg(0) + ")";
  if (api == cuda + "selp")
    return "(" + truthy(c->args[0]) + " ? " + argAs(1, *t) + " : " + argAs(2, *t) + ")";

  // Casts to numba and numpy scalar types.
  if (t != nullptr && t->isScalar() && c->args.size() == 1 &&
      (api.rfind("numba.", 0) == 0 || api.rfind("numpy.", 0) == 0))
    return argAs(0, *t);

  if (api == "print") {
    std::string format, args;
    for (size_t i = 0; i < c->args.size(); ++i) {
      const ast::Expr* a = c->args[i];
      format += i ? " " : "";
      if (const auto* k = a->as<ast::Constant>(); k && k->valueKind == ast::ConstantKind::Str) {
        std::string escaped;
        for (char ch : k->strValue)
          escaped += ch == '%' ? std::string("%%") : std::string(1, ch);
        format += escaped;
        continue;
      }
      const NumbaType at = argType(i);
      if (!at.isScalar() || isComplexType(at)) {
        unsupported(a->range, "printing a value of type `" + at.str() + "`");
        return "0";
      }
      format += at.scalarKind() == ScalarKind::Boolean   ? "%s"
                : isFloating(at)                         ? "%f"
                : sema::isSignedInteger(at.scalarKind()) ? "%lld"
                                                         : "%llu";
      args += ", pyk::print_arg(" + arg(i) + ")";
    }
    std::string literal;
    for (char ch : format + "\n") {
      if (ch == '"' || ch == '\\')
        literal += '\\';
      if (ch == '\n') {
        literal += "\\n";
        continue;
      }
      literal += ch;
    }
    return "printf(\"" + literal + "\"" + args + ")";
  }
  if (api == "len") {
    const NumbaType a = argType(0);
    if (a.isArray())
      return arg(0) + ".shape[0]";
    return std::to_string(a.elements().size()) + "LL";
  }

  if (api.rfind("cmath.", 0) == 0 && t != nullptr) {
    const std::string name = api.substr(6);
    const NumbaType a0 = argType(0);
    const bool single = t->isScalar() && (t->scalarKind() == ScalarKind::Complex64 ||
                                          t->scalarKind() == ScalarKind::Float32);
    const NumbaType complexType = NumbaType::scalar(
        (single || (t->isTuple() && t->elements()[0].scalarKind() == ScalarKind::Float32) ||
         (a0.isScalar() &&
          (a0.scalarKind() == ScalarKind::Float32 || a0.scalarKind() == ScalarKind::Complex64)))
            ? ScalarKind::Complex64
            : ScalarKind::Complex128);
    if (name == "rect" && t->isScalar()) {
      // Both parts in the precision of the result (complex64 only from two float32).
      const NumbaType part = NumbaType::scalar(
          t->scalarKind() == ScalarKind::Complex64 ? ScalarKind::Float32 : ScalarKind::Float64);
      return "pyk::crect(" + castTo(c->args[0], part) + ", " + castTo(c->args[1], part) + ")";
    }
    const std::string z = castTo(c->args[0], complexType);
    if (name == "phase")
      return "pyk::cphase(" + z + ")";
    if (name == "polar")
      return "[&] { const auto w = " + z + "; return " + type(*t) +
             "{{pyk::abs(w), pyk::cphase(w)}}; }()";
    if (name == "isnan")
      return "pyk::cisnan(" + z + ")";
    if (name == "isinf" || name == "isfinite") {
      std::string w = temp("z");
      std::string inf = "(isinf(" + w + ".re) || isinf(" + w + ".im))";
      std::string test = name == "isinf" ? inf : "!(" + inf + " || pyk::cisnan(" + w + "))";
      return "[&] { const auto " + w + " = " + z + "; return static_cast<bool>(" + test + "); }()";
    }
    return "pyk::c" + name + "(" + z + ")";
  }

  // math and the numeric builtins: arguments converted as numba converts them.
  std::vector<ScalarKind> kinds;
  for (size_t i = 0; i < c->args.size(); ++i) {
    const NumbaType a = argType(i);
    if (!a.isScalar()) {
      unsupported(c->range, "`" + api + "` of `" + a.str() + "`");
      return "0";
    }
    kinds.push_back(a.scalarKind());
  }
  std::optional<std::vector<ScalarKind>> converted = sema::callArgumentTypes(api, kinds);
  if (!converted || t == nullptr) {
    unsupported(c->range, "`" + api + "`");
    return "0";
  }
  std::vector<std::string> a;
  for (size_t i = 0; i < c->args.size(); ++i)
    a.push_back(castScalar(c->args[i], (*converted)[i]));
  const bool f32 = !converted->empty() && (*converted)[0] == ScalarKind::Float32;
  // numba's integer overloads of libm functions compute in float64 (math.sqrt(int) is float64).
  auto libm = [&](const std::string& name) {
    std::string out = (f32 ? name + "f" : name) + "(";
    for (size_t i = 0; i < a.size(); ++i) {
      ScalarKind k = (*converted)[i];
      bool integral = sema::isInteger(k) || k == ScalarKind::Boolean;
      out += (i ? ", " : "") + (integral ? "static_cast<pyk::float64>(" + a[i] + ")" : a[i]);
    }
    return cast(out + ")", NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64), *t);
  };
  static const std::set<std::string> kLibm = {
      "sin",      "cos",   "tan",   "asin",  "acos",  "atan",   "atan2", "sinh",
      "cosh",     "tanh",  "asinh", "acosh", "atanh", "exp",    "expm1", "exp2",
      "log2",     "log10", "log1p", "sqrt",  "fabs",  "floor",  "ceil",  "trunc",
      "copysign", "fmod",  "hypot", "erf",   "erfc",  "lgamma", "pow"};
  // Tuple results, built by a lambda so each argument is evaluated once.
  if (api == "math.frexp" || api == "math.modf" || api == "divmod") {
    const NumbaType& tt = *t;
    const std::string f = f32 ? "f" : "";
    std::string body;
    if (api == "math.frexp")
      body = "int e = 0; const auto m = frexp" + f + "(" + a[0] + ", &e); return " + type(tt) +
             "{m, static_cast<pyk::int32>(e)};";
    else if (api == "math.modf")
      body = "decltype(" + a[0] + ") whole{}; const auto part = modf" + f + "(" + a[0] +
             ", &whole); return " + type(tt) + "{{part, whole}};";
    else
      body = "const auto x = " + a[0] + "; const auto y = " + a[1] + "; return " + type(tt) +
             "{{pyk::floordiv(x, y), pyk::mod(x, y)}};";
    return "[&] { " + body + " }()";
  }
  if (api.rfind("math.", 0) == 0) {
    std::string name = api.substr(5);
    if (kLibm.count(name))
      return libm(name);
    if (name == "gamma")
      return libm("tgamma");
    if (name == "log")
      return a.size() == 1
                 ? libm("log")
                 : cast("(" + std::string(f32 ? "logf(" : "log(") + a[0] + ") / " +
                            (f32 ? "logf(" : "log(") + a[1] + "))",
                        NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64), *t);
    if (name == "isnan" || name == "isinf" || name == "isfinite")
      return "static_cast<bool>(" + name + "(" + a[0] + "))";
    if (name == "degrees")
      return cast("(" + a[0] + " * " + (f32 ? "57.29577951308232f" : "57.29577951308232") + ")",
                  NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64), *t);
    if (name == "radians")
      return cast("(" + a[0] + " * " + (f32 ? "0.017453292519943295f" : "0.017453292519943295") +
                      ")",
                  NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64), *t);
    if (name == "ldexp")
      return cast(std::string(f32 ? "ldexpf(" : "ldexp(") + a[0] + ", " + a[1] + ")",
                  NumbaType::scalar(f32 ? ScalarKind::Float32 : ScalarKind::Float64), *t);
    unsupported(c->range, "`" + api + "`");
    return "0";
  }
  if (api == "abs")
    return "pyk::abs(" + a[0] + ")";
  if ((api == "min" || api == "max") && a.size() >= 2) {
    std::string out = a[0];
    for (size_t i = 1; i < a.size(); ++i)
      out = "pyk::" + api + "(" + out + ", " + a[i] + ")";
    return cast(out, NumbaType::scalar((*converted)[0]), *t);
  }
  if (api == "round")
    return a.size() == 1 ? "pyk::round_half_even(" + a[0] + ")"
                         : "pyk::round_ndigits(" + a[0] + ", " + a[1] + ")";
  if (api == "int" || api == "float")
    return cast(a[0], NumbaType::scalar((*converted)[0]), *t);
  if (api == "bool")
    return "(" + a[0] + " != 0)";
  if (api == "complex" && t->isScalar()) {
    if (a.size() == 1)
      return cast(a[0], NumbaType::scalar((*converted)[0]), *t);
    const std::string part =
        t->scalarKind() == ScalarKind::Complex64 ? "pyk::float32" : "pyk::float64";
    return type(*t) + "(static_cast<" + part + ">(" + a[0] + "), static_cast<" + part + ">(" +
           a[1] + "))";
  }
  if (api == "pow") {
    unsupported(c->range, "the builtin `pow`; use `**`");
    return "0";
  }
  unsupported(c->range, "`" + api + "`");
  return "0";
}

} // namespace pyk::codegen
