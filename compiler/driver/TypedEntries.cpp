// TypedEntries: the selected functions typed for their signatures (driver/TypedEntries.h).
#include "driver/TypedEntries.h"

#include <optional>

#include "sema/resolve/SignatureParser.h"

namespace pyk::driver {

jit::SpecializationRequest requestFor(const sema::ResolvedModule& resolved, const SourceFile& file,
                                      const Entry& entry, jit::Target target, jit::Stage stage,
                                      sema::SpecializationSet& set, DiagnosticEngine& diags,
                                      const jit::JitSettings& settings) {
  return jit::SpecializationRequest{.module = resolved,
                                    .file = file,
                                    .function = *entry.function,
                                    .params = entry.signature.params,
                                    .returnType = entry.signature.returnType,
                                    .target = std::move(target),
                                    .diags = diags,
                                    .stage = stage,
                                    .settings = settings,
                                    .set = &set};
}

std::vector<Entry> typeSelectedFunctions(const sema::ResolvedModule& resolved,
                                         const SourceFile& file, const Options& options,
                                         const jit::Target& target, sema::SpecializationSet& set,
                                         DiagnosticEngine& diags) {
  std::optional<types::FunctionSignature> cliSignature;
  if (!options.sig.empty()) {
    cliSignature = sema::parseSignature(
        options.sig, sema::StringLiteralLocation(SourceRange(), options.sig, nullptr), diags);
    if (!cliSignature)
      return {};
  }
  std::vector<Entry> entries;
  bool selected = false;
  for (const sema::CompiledFunction& function : resolved.functions) {
    if (function.shadowed ||
        (!options.kernel.empty() && resolved.function(options.kernel) != &function))
      continue; // a definition a later one of the same name replaces is dead, as in Python
    selected = true;
    std::vector<types::FunctionSignature> signatures =
        cliSignature ? std::vector<types::FunctionSignature>{*cliSignature} : function.signatures;
    if (signatures.empty()) {
      // Device functions are typed through their callers; a kernel needs types to start from.
      if (function.kind != types::CompiledFunctionKind::DeviceFunction || !options.kernel.empty())
        diags.report(DiagKind::TypeKernelNeedsSignature, function.def->nameRange, {function.name});
      continue;
    }
    for (const types::FunctionSignature& signature : signatures) {
      const Entry entry{&function, signature};
      if (jit::compileSpecialization(
              requestFor(resolved, file, entry, target, jit::Stage::Typed, set, diags)))
        entries.push_back(entry);
    }
  }
  if (!selected)
    diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
  return entries;
}

} // namespace pyk::driver
