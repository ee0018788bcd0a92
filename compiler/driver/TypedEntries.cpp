// TypedEntries: the selected functions typed for their signatures (driver/TypedEntries.h).
#include "driver/TypedEntries.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
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

namespace {

// Whether a log's source path names `file`: the same file where both exist; else (a path
// relative to the program's folder, which pykc does not know) the same file name.
bool sameSource(const std::string& logged, const std::string& file) {
  std::error_code error;
  if (std::filesystem::equivalent(logged, file, error))
    return true;
  if (!error)
    return false;
  return std::filesystem::path(logged).filename() == std::filesystem::path(file).filename();
}

// The signatures PYK_SPECIALIZATION_LOG files list for `file`'s functions, by function, each once
// and in the order first listed; false (reported) when a log cannot be read.
bool readLogs(const Options& options, std::map<std::string, std::vector<std::string>>& out,
              DiagnosticEngine& diags) {
  for (const std::string& path : options.fromLogs) {
    std::ifstream in(path);
    if (!in) {
      diags.report(DiagKind::CannotReadFile, SourceRange(), {path, "no such readable file"});
      return false;
    }
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#')
        continue; // a named tuple's: no signature string spells it
      const size_t tab = line.find('\t'), second = line.find('\t', tab + 1);
      if (tab == std::string::npos || second == std::string::npos ||
          !sameSource(line.substr(0, tab), options.file))
        continue;
      std::vector<std::string>& signatures = out[line.substr(tab + 1, second - tab - 1)];
      const std::string signature = line.substr(second + 1);
      if (std::find(signatures.begin(), signatures.end(), signature) == signatures.end())
        signatures.push_back(signature);
    }
  }
  return true;
}

} // namespace

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
  std::map<std::string, std::vector<std::string>> logged;
  if (!cliSignature && !options.fromLogs.empty() && !readLogs(options, logged, diags))
    return {};
  std::vector<Entry> entries;
  bool selected = false, fromLog = false;
  for (const sema::CompiledFunction& function : resolved.functions) {
    if (function.shadowed ||
        (!options.kernel.empty() && resolved.function(options.kernel) != &function))
      continue; // a definition a later one of the same name replaces is dead, as in Python
    selected = true;
    std::vector<types::FunctionSignature> signatures =
        cliSignature ? std::vector<types::FunctionSignature>{*cliSignature} : function.signatures;
    if (auto it = logged.find(function.name); it != logged.end()) {
      for (const std::string& text : it->second) {
        std::optional<types::FunctionSignature> signature = sema::parseSignature(
            text, sema::StringLiteralLocation(SourceRange(), text, nullptr), diags);
        if (!signature)
          return {};
        if (std::find(signatures.begin(), signatures.end(), *signature) == signatures.end())
          signatures.push_back(std::move(*signature));
      }
      fromLog = true;
    }
    if (signatures.empty() && !options.fromLogs.empty() && !cliSignature && options.kernel.empty())
      continue; // with a log, the functions it does not list are left out
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
  if (!selected) {
    diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
  } else if (!options.fromLogs.empty() && !cliSignature && !fromLog && entries.empty() &&
             !diags.hasErrors()) {
    std::string logs;
    for (const std::string& log : options.fromLogs)
      logs += (logs.empty() ? "`" : ", `") + log + "`";
    diags.report(DiagKind::LogListsNoSpecialization, SourceRange(), {options.file, logs});
  }
  return entries;
}

} // namespace pyk::driver
