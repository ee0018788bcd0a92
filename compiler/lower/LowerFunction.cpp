// LowerFunction: the module's functions in the order a unit emits them, each function's header
// (its kind, names, specialization, source), its variables and SSA versions (each phi's join and
// edges as the IR's statements), and its body.
#include <algorithm>

#include "lower/FunctionLowering.h"
#include "sema/catalog/LibraryModule.h"
#include "sema/fold/ConstantFolder.h"
#include "sema/fold/FunctionConstants.h"
#include "sema/typing/TypeInference.h"

namespace pyk::lower {

std::vector<const sema::Specialization*> reachedFrom(const sema::Specialization& entry) {
  std::vector<const sema::Specialization*> pending{&entry};
  std::vector<const sema::Specialization*> reached;
  while (!pending.empty()) {
    const sema::Specialization* s = pending.back();
    pending.pop_back();
    if (std::find(reached.begin(), reached.end(), s) != reached.end())
      continue;
    reached.push_back(s);
    // Callees in the order their calls appear in the source (the call table is unordered): the
    // unit's text, and so its cache key, is the same in every run.
    std::vector<std::pair<const ast::Call*, const sema::Specialization*>> calls(s->callees.begin(),
                                                                                s->callees.end());
    std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
      const SourceRange& x = a.first->range;
      const SourceRange& y = b.first->range;
      if (x.begin != y.begin)
        return x.begin < y.begin;
      return y.end < x.end; // an enclosing call before the calls in its arguments
    });
    for (auto it = calls.rbegin(); it != calls.rend(); ++it)
      pending.push_back(it->second);
  }
  return reached;
}

LoweredModule lowerSpecialization(const sema::ResolvedModule& module, const SourceFile& file,
                                  const sema::Specialization& entry, DiagnosticEngine& diags) {
  LoweredModule result;
  auto out = std::make_unique<ir::Module>();
  out->setSourcePath(file.path());
  ModuleLowering m{module, file, diags, *out, {}, {}, {}, false};
  const std::vector<const sema::Specialization*> reached = reachedFrom(entry);
  // Every function first, so that calls can name their callees before those are lowered.
  for (const sema::Specialization* s : reached)
    m.functions[s] = out->addFunction();
  for (const sema::Specialization* s : reached)
    FunctionLowering(m, *s, *m.functions[s]).run();
  // A function declared with cuda.declare_device that no linked file mentions has no definition:
  // said here, where the kernel calls it, rather than as an unresolved symbol when it loads. A
  // binary (a CUBIN, a fatbin, possibly compressed...) is not searched: nvJitLink says whether
  // it defines the function.
  for (const ir::Module::ForeignDeclaration& d : out->foreignDeclarations)
    if (std::none_of(out->linkedSources.begin(), out->linkedSources.end(),
                     [&](const types::LinkedSource& l) {
                       return !l.isText() || l.text.find(d.symbol) != std::string::npos;
                     })) {
      diags.report(DiagKind::ForeignNotLinked, d.firstCall, {d.symbol});
      m.failed = true;
    }
  result.internalProblems = std::move(m.internalProblems);
  if (!m.failed)
    result.module = std::move(out);
  return result;
}

void FunctionLowering::run() {
  header();
  out_.body = block(spec_.function->def->body);
  // numba's implicit `return None` at the end of a body that reaches it, in a function that
  // returns an Optional, or a number its declared signature converts the Optional to (one
  // returning none needs none).
  const NumbaType& result = spec_.returnType;
  if ((result.isOptional() || result.isScalar()) && sema::fallsThrough(spec_.function->def->body)) {
    auto* end = make<ir::Return>(spec_.function->def->range);
    end->value = returnedNone(spec_.function->def->range);
    out_.body.push_back(end);
  }
  versions();
}

void FunctionLowering::header() {
  const sema::CompiledFunction& fn = *spec_.function;
  out_.kind = fn.kind;
  out_.name = fn.name;
  out_.qualifiedName = fn.qualifiedName;
  out_.libraryName = fn.library != nullptr ? fn.library->qualifiedName : "";
  out_.sourcePath = fn.library != nullptr ? fn.library->file.path() : m_.file.path();
  out_.definition = fn.def->range;
  out_.nameRange = fn.def->nameRange;
  out_.params = spec_.params;
  out_.literals = spec_.literals;
  out_.returnType = spec_.returnType;
  out_.description = spec_.describe();
  if (fn.kind == types::CompiledFunctionKind::Kernel) {
    out_.launchBounds = fn.options.launchBounds;
    out_.maxRegisters = fn.options.maxRegisters;
  }
  for (const types::LinkedSource& source : fn.options.linkSources) // `link=` of the decorator
    m_.out.addLinkedSource(source);
  for (size_t i = 0; i < scope_.params.size(); ++i)
    out_.variables.push_back(ir::Variable{scope_.params[i], true, std::nullopt});
  for (size_t i = 0; i < scope_.locals.size(); ++i)
    out_.variables.push_back(ir::Variable{
        scope_.locals[i], false, i < spec_.localTypes.size() ? spec_.localTypes[i] : std::nullopt});
  for (size_t i = 0; i < scope_.params.size() && i < spec_.params.size(); ++i)
    out_.variables[i].type = spec_.params[i];
}

void FunctionLowering::versions() {
  const sema::LocalVersions& versions = scope_.versions;
  auto statementOf = [&](const ast::Node* n) -> const ir::Stmt* {
    if (n == nullptr)
      return nullptr;
    auto it = statements_.find(n);
    return it == statements_.end() ? nullptr : it->second;
  };
  std::set<size_t> atHeads;
  for (const auto& [at, phis] : versions.headPhis)
    atHeads.insert(phis.begin(), phis.end());
  for (size_t v = 0; v < versions.versions.size(); ++v) {
    const sema::LocalVersion& in = versions.versions[v];
    ir::Version version;
    switch (in.kind) {
    case sema::LocalVersion::Kind::Entry:
      version.kind = ir::Version::Kind::Entry;
      break;
    case sema::LocalVersion::Kind::Def:
      version.kind = ir::Version::Kind::Def;
      break;
    case sema::LocalVersion::Kind::Phi:
      version.kind = ir::Version::Kind::Phi;
      break;
    case sema::LocalVersion::Kind::Undefined:
      version.kind = ir::Version::Kind::Undefined;
      break;
    }
    version.variable = in.variable;
    if (in.name != nullptr)
      version.range = in.name->range;
    if (const NumbaType* t = spec_.versionType(v))
      version.type = *t;
    version.join = statementOf(in.join);
    version.loopHead = atHeads.count(v) != 0;
    for (const sema::PhiInput& phiInput : in.inputs)
      version.inputs.push_back(
          ir::PhiInput{phiInput.version, phiInput.edge, statementOf(phiInput.at)});
    version.usedByPhis = in.usedByPhis;
    version.live = in.live;
    version.reads = in.reads;
    out_.versions.push_back(std::move(version));
  }
}

void FunctionLowering::unsupported(SourceRange r, const std::string& what) {
  m_.failed = true;
  if (!m_.reported
           .insert(what + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column))
           .second)
    return;
  m_.diags.report(DiagKind::CodegenNotSupported, r, {what});
}

const sema::ResolvedModule& FunctionLowering::definingModule() const {
  return spec_.function->library != nullptr ? spec_.function->library->resolved : m_.module;
}

std::vector<int64_t> FunctionLowering::constantShape(const ast::Expr* e) const {
  DiagnosticEngine quiet;
  sema::ConstantFolder folder(definingModule().symbols, quiet);
  folder.setLocalNames(sema::functionLocalNames(spec_, folder));
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

} // namespace pyk::lower
