// EmitFunctions: the unit's functions — each function of the IR module as a kernel or device
// function with its variables declared at the top, numba's ufunc and gufunc kernels around a
// @vectorize / @guvectorize function — and the unit around them.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::functions() {
  // Callees first (reverse discovery order); recursion needs the declarations.
  const ir::Function& entry = module_.entry();
  std::string declarations;
  for (const auto& f : module_.functions()) {
    if (f.get() == &entry)
      continue;
    std::string params = target_.contextParameter();
    for (const NumbaType& p : f->params)
      if (!p.isCompileTimeOnly())
        params += (params.empty() ? "" : ", ") + type(p);
    declarations +=
        target_.deviceFunctionHead(type(f->returnType)) + mangledName(*f) + "(" + params + ");\n";
  }
  for (auto it = module_.functions().rbegin(); it != module_.functions().rend(); ++it)
    function(**it, it->get() == &entry);
  return declarations.empty() ? "" : declarations + "\n";
}

void UnitEmitter::function(const ir::Function& f, bool entry) {
  beginFunction(f);
  const bool kernel = f.kind == types::CompiledFunctionKind::Kernel;
  std::ostringstream signature;
  signature << "// " << types::nameOf(f.kind) << ' ' << f.description << '\n';
  if (lineDirectives_ && f.definition.valid())
    body_ << "#line " << f.definition.begin.line << " \"" << f.sourcePath << "\"\n";
  body_ << signature.str();
  std::string head =
      kernel ? target_.kernelHead(entry) : target_.deviceFunctionHead(type(f.returnType));
  if (kernel && entry)
    head += target_.kernelLimits(f.launchBounds, f.maxRegisters);
  auto check = [&](const NumbaType& t, const std::string& name) {
    if (!supported(t))
      unsupported(f.nameRange, "the type `" + t.str() + "` (of `" + name + "`)");
  };
  for (size_t i = 0; i < f.params.size(); ++i)
    check(f.params[i], f.variables[i].name);
  for (const ir::Variable& v : f.variables)
    if (!v.parameter && v.type)
      check(*v.type, v.name);
  if (!f.returnType.isVoid())
    check(f.returnType, "the return value");
  head += mangledName(f) + "(";
  std::vector<std::string> params;
  if (!target_.contextParameter().empty())
    params.push_back(target_.contextParameter());
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (f.params[i].isCompileTimeOnly())
      continue; // a function or type object: the specialization is for it, nothing is passed
    params.push_back(type(f.params[i]) + " " + pythonName(f.variables[i].name));
    if (kernel && entry)
      entryParameterTypes_.push_back(type(f.params[i]));
  }
  for (size_t i = 0; i < params.size(); ++i)
    head += (i ? ", " : "") + params[i];
  head += ") {";
  body_ << head << '\n';
  indent_ = 1;
  // Python scopes are per function: every variable is declared once, at the top (one C++
  // variable per type its versions take; a parameter is its own first).
  for (size_t var = 0; var < f.variables.size(); ++var) {
    const std::vector<StorageSlot>& slots = storage_.slotsOf(var);
    for (size_t k = f.variables[var].parameter ? 1 : 0; k < slots.size(); ++k) {
      check(slots[k].type, f.variables[var].name);
      if (!slots[k].type.isVoid() && !slots[k].type.isCompileTimeOnly())
        line(type(slots[k].type) + " " + slots[k].cppName + "{};");
    }
  }
  block(f.body);
  indent_ = 0;
  body_ << "}\n\n";
}

std::string UnitEmitter::vectorizeKernel(const ir::Function& scalar) {
  std::string name = "pyk_u_" + mangledName(scalar).substr(std::string("pyk_d_").size());
  auto arrayOf = [&](const NumbaType& t) {
    return "pyk::Array<" + type(t) + ", 1, pyk::Layout::A>";
  };
  std::ostringstream k;
  k << "// ufunc kernel for " << scalar.description << '\n';
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

std::string UnitEmitter::guvectorizeKernel(const ir::Function& core) {
  std::string name = "pyk_g_" + mangledName(core).substr(std::string("pyk_d_").size());
  std::ostringstream k;
  k << "// gufunc kernel for " << core.description << '\n';
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
    if (p.isArray() && p.layout() != types::ArrayLayout::A)
      view = "pyk::as_layout<pyk::Layout::" + std::string(types::layoutName(p.layout())) + ">(" +
             view + ")";
    k << (i ? ", " : "") << (p.isArray() ? view : "arg" + std::to_string(i) + "(i)");
  }
  k << ");\n}\n\n";
  body_ << k.str();
  return name;
}

std::string UnitEmitter::finish(const std::string& declarations) {
  std::string out = "// Generated by pykc from " + module_.sourcePath() + ". Do not edit.\n";
  out += "#include \"" + target_.supportHeader() + "\"\n\n";
  out += prelude_.str();
  out += linkedSources();
  out += foreignDeclarations();
  out += declarations;
  out += body_.str();
  return out;
}

std::vector<std::string> UnitEmitter::variableDeclarations(sema::VariableId v) {
  std::vector<std::string> out;
  for (const StorageSlot& slot : storage_.slotsOf(v))
    if (!slot.type.isVoid() && !slot.type.isCompileTimeOnly())
      out.push_back(type(slot.type) + " " + slot.cppName);
  return out;
}

void UnitEmitter::lineDirective(const ir::Node* n) {
  if (lineDirectives_ && n->range.valid())
    body_ << "#line " << n->range.begin.line << " \"" << fn_->sourcePath << "\"\n";
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

std::string UnitEmitter::stopMessage(const ir::Node* at, const std::string& what) const {
  std::string text = fn_->sourcePath + ":" + std::to_string(at->range.begin.line) + ":" +
                     std::to_string(at->range.begin.column) + ": in `" + fn_->name + "`: " + what;
  std::string literal;
  for (char ch : text) {
    if (ch == '"' || ch == '\\')
      literal += '\\';
    literal += ch == '%' ? std::string("%%") : std::string(1, ch);
  }
  return literal;
}

} // namespace pyk::codegen
