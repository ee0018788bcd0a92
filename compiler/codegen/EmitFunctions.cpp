// EmitFunctions: the unit's functions — each reached specialization as a kernel or device
// function with its locals declared at the top, numba's ufunc and gufunc kernels around a
// @vectorize / @guvectorize function — and the unit around them.
#include <algorithm>

#include "codegen/UnitEmitter.h"
#include "lower/Lowering.h"

namespace pyk::codegen {

std::vector<const Specialization*> UnitEmitter::reachedFrom(const Specialization& entry) {
  return lower::reachedFrom(entry); // the order of the IR module's functions
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
      if (!s->params[i].isCompileTimeOnly())
        params += (params.empty() ? "" : ", ") + type(s->params[i]);
    declarations +=
        target_.deviceFunctionHead(type(s->returnType)) + mangledName(*s) + "(" + params + ");\n";
  }
  for (auto it = reached.rbegin(); it != reached.rend(); ++it)
    function(**it, *it == &entry);
  return declarations.empty() ? "" : declarations + "\n";
}

void UnitEmitter::function(const Specialization& spec, bool entry) {
  beginSpecialization(spec);
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
    if (spec.params[i].isCompileTimeOnly())
      continue; // a function or type object: the specialization is for it, nothing is passed
    params.push_back(type(spec.params[i]) + " " + pythonName(fn.scope.params[i]));
    if (kernel && entry)
      entryParameterTypes_.push_back(type(spec.params[i]));
  }
  for (size_t i = 0; i < params.size(); ++i)
    head += (i ? ", " : "") + params[i];
  head += ") {";
  body_ << head << '\n';
  indent_ = 1;
  // Python scopes are per function: every local is declared once, at the top (one C++ variable
  // per type its versions take; a parameter is its own first).
  for (size_t var = 0; var < fn.scope.params.size() + fn.scope.locals.size(); ++var) {
    const std::vector<StorageSlot>& slots = storage_.slotsOf(var);
    for (size_t k = fn.scope.isParameter(var) ? 1 : 0; k < slots.size(); ++k) {
      check(slots[k].type, fn.scope.variableName(var));
      if (!slots[k].type.isVoid() && !slots[k].type.isCompileTimeOnly())
        line(type(slots[k].type) + " " + slots[k].cppName + "{};");
    }
  }
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

std::string UnitEmitter::finish(const std::string& declarations) {
  std::string out = "// Generated by pykc from " + file_.path() + ". Do not edit.\n";
  out += "#include \"" + target_.supportHeader() + "\"\n\n";
  out += prelude_.str();
  out += declarations;
  out += body_.str();
  return out;
}

std::string UnitEmitter::localDeclaration(size_t i) {
  const std::vector<StorageSlot>& slots =
      storage_.slotsOf(spec_->function->scope.params.size() + i);
  if (slots.empty() || slots.front().type.isVoid())
    return "";
  return type(slots.front().type) + " " + slots.front().cppName;
}

void UnitEmitter::lineDirective(const ast::Node* n) {
  if (lineDirectives_ && n->range.valid())
    body_ << "#line " << n->range.begin.line << " \"" << sourcePath() << "\"\n";
}

void UnitEmitter::unsupported(SourceRange r, const std::string& what) {
  if (!reported_.insert(what + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column))
           .second)
    return;
  diags_.report(DiagKind::CodegenNotSupported, r, {what});
  failed_ = true;
}

std::string UnitEmitter::contextParameterList(bool more) const {
  const std::string p = target_.contextParameter();
  return p.empty() ? "" : p + (more ? ", " : "");
}

std::string UnitEmitter::contextArgumentList(bool more) const {
  const std::string a = target_.contextArgument();
  return a.empty() ? "" : a + (more ? ", " : "");
}

std::string UnitEmitter::stopMessage(const ast::Node* at, const std::string& what) const {
  std::string text = sourcePath() + ":" + std::to_string(at->range.begin.line) + ":" +
                     std::to_string(at->range.begin.column) + ": in `" + spec_->function->name +
                     "`: " + what;
  std::string literal;
  for (char ch : text) {
    if (ch == '"' || ch == '\\')
      literal += '\\';
    literal += ch == '%' ? std::string("%%") : std::string(1, ch);
  }
  return literal;
}

} // namespace pyk::codegen
