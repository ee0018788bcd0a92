// ResolvedModulePrinter: a readable summary of a resolved module (imports, constants, host values,
// compiled functions with their options, signatures and names), for `pykc emit --emit=symbols`.
#include "sema/resolve/ResolvedModulePrinter.h"

#include <algorithm>
#include <set>

#include "sema/catalog/ModuleApiCatalog.h"

namespace pyk::sema {

namespace {

std::string join(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? separator : "") + items[i];
  return out;
}

const char* boolText(bool value) {
  return value ? "True" : "False";
}

std::vector<std::string> optionList(const DecoratorOptions& o) {
  std::vector<std::string> out;
  auto flag = [&](const char* name, const std::optional<bool>& value) {
    if (value)
      out.push_back(std::string(name) + "=" + boolText(*value));
  };
  flag("device", o.device);
  flag("debug", o.debug);
  flag("lineinfo", o.lineinfo);
  flag("cache", o.cache);
  flag("opt", o.opt);
  if (!o.fastmathFlags.empty()) {
    std::vector<std::string> quoted;
    for (const std::string& f : o.fastmathFlags)
      quoted.push_back("'" + f + "'");
    out.push_back("fastmath={" + join(quoted) + "}");
  } else {
    flag("fastmath", o.fastmath);
  }
  if (o.inlineMode)
    out.push_back("inline='" + *o.inlineMode + "'");
  if (o.maxRegisters)
    out.push_back("max_registers=" + std::to_string(*o.maxRegisters));
  if (!o.launchBounds.empty()) {
    std::vector<std::string> bounds;
    for (int64_t b : o.launchBounds)
      bounds.push_back(std::to_string(b));
    out.push_back("launch_bounds=(" + join(bounds) + (bounds.size() == 1 ? ",)" : ")"));
  }
  if (!o.link.empty()) {
    std::vector<std::string> quoted;
    for (const std::string& l : o.link)
      quoted.push_back("'" + l + "'");
    out.push_back("link=[" + join(quoted) + "]");
  }
  flag("lto", o.lto);
  flag("boundscheck", o.boundscheck);
  flag("nopython", o.nopython);
  flag("forceobj", o.forceobj);
  flag("forceinline", o.forceinline);
  if (o.identity)
    out.push_back("identity=" + *o.identity);
  if (!o.writableArgs.empty()) {
    std::vector<std::string> args;
    for (int64_t a : o.writableArgs)
      args.push_back(std::to_string(a));
    out.push_back("writable_args=(" + join(args) + (args.size() == 1 ? ",)" : ")"));
  }
  return out;
}

bool before(const SourceRange& a, const SourceRange& b) {
  return a.begin < b.begin;
}

void printFunction(const ResolvedModule& module, const CompiledFunction& f, std::ostream& out) {
  out << nameOf(f.kind) << ' ' << f.name << '(' << join(f.scope.params) << ")\n";
  out << "  decorator: " << f.decoratorName << '\n';
  if (f.kind == CompiledFunctionKind::Vectorize || f.kind == CompiledFunctionKind::GuVectorize)
    out << "  target: " << f.options.target << '\n';
  if (f.layout)
    out << "  layout: " << f.layout->spelling() << '\n';
  if (f.lazy) {
    out << "  signatures: none (compiled per argument types)\n";
  } else if (f.signatures.empty()) {
    out << "  signatures: none valid\n";
  } else {
    std::vector<std::string> sigs;
    for (const FunctionSignature& s : f.signatures)
      sigs.push_back(s.spelling());
    out << "  signatures: " << join(sigs) << '\n';
  }
  std::vector<std::string> options = optionList(f.options);
  if (!options.empty())
    out << "  options: " << join(options) << '\n';
  if (!f.scope.locals.empty())
    out << "  locals: " << join(f.scope.locals) << '\n';

  // The names the body uses, each once, in order of first use.
  std::vector<std::pair<const ast::Name*, const NameBinding*>> uses;
  for (const auto& [name, binding] : f.scope.names)
    if (binding.kind != NameBinding::Kind::Local && binding.kind != NameBinding::Kind::Parameter)
      uses.emplace_back(name, &binding);
  std::sort(uses.begin(), uses.end(),
            [](const auto& a, const auto& b) { return before(a.first->range, b.first->range); });
  std::set<std::string> seen;
  std::vector<std::string> lines;
  for (const auto& [name, binding] : uses) {
    if (!seen.insert(name->id).second)
      continue;
    std::string line = name->id + ": ";
    switch (binding->kind) {
    case NameBinding::Kind::ModuleConstant:
      line += "constant " + module.symbols.constants()[binding->index].value.repr();
      break;
    case NameBinding::Kind::CompiledFunction:
      line += "device function";
      break;
    case NameBinding::Kind::Api:
      line += binding->qualifiedName;
      break;
    case NameBinding::Kind::Builtin:
      line += "builtin";
      break;
    default:
      line += nameOf(binding->kind);
      break;
    }
    lines.push_back(line);
  }
  std::vector<std::pair<const ast::Attribute*, const std::string*>> attributes;
  for (const auto& [attribute, qualified] : f.scope.apiAttributes)
    attributes.emplace_back(attribute, &qualified);
  std::sort(attributes.begin(), attributes.end(), [](const auto& a, const auto& b) {
    if (a.first->range.begin != b.first->range.begin)
      return before(a.first->range, b.first->range);
    return b.first->range.end < a.first->range.end;
  });
  std::set<std::string> seenApi;
  for (const auto& [attribute, qualified] : attributes) {
    // Namespaces (`numba.cuda.threadIdx` of `cuda.threadIdx.x`) add nothing to their members.
    std::optional<ApiEntity> entity = lookupApi(*qualified);
    if (entity && entity->kind == ApiKind::Module)
      continue;
    if (seenApi.insert(*qualified).second)
      lines.push_back(*qualified);
  }
  for (const std::string& line : lines)
    out << "  uses " << line << '\n';
}

} // namespace

void printResolvedModule(const ResolvedModule& module, std::ostream& out) {
  const ModuleSymbolTable& symbols = module.symbols;
  for (const std::string& name : symbols.names()) {
    const ModuleSymbol* symbol = symbols.find(name);
    switch (symbol->kind) {
    case ModuleSymbolKind::Import:
      out << "import " << name << " = " << symbols.imports()[symbol->index].qualifiedName << '\n';
      break;
    case ModuleSymbolKind::Constant: {
      const ConstantValue& value = symbols.constants()[symbol->index].value;
      out << "constant " << name << " = " << value.repr() << " : " << value.typeDescription()
          << '\n';
      break;
    }
    case ModuleSymbolKind::HostValue:
      out << "host value " << name << ": " << symbols.hostValues()[symbol->index].reason << '\n';
      break;
    case ModuleSymbolKind::HostFunction:
      out << "host function " << name << '\n';
      break;
    case ModuleSymbolKind::Class:
      out << "class " << name << '\n';
      break;
    case ModuleSymbolKind::CompiledFunction:
      out << nameOf(module.functions[symbol->index].kind) << ' ' << name << '\n';
      break;
    }
  }
  for (const CompiledFunction& f : module.functions) {
    out << '\n';
    printFunction(module, f, out);
  }
}

} // namespace pyk::sema
