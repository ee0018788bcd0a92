// main: the `pykc` command — reads a .pyk file, runs the front end, reports or emits.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "diag/DiagnosticEngine.h"
#include "driver/CommandLine.h"
#include "pyk/version.hpp"
#include "sema/ModuleResolver.h"
#include "sema/ResolvedModulePrinter.h"
#include "sema/SignatureParser.h"
#include "sema/SpecializationPrinter.h"
#include "sema/TypeInference.h"
#include "syntax/AstPrinter.h"
#include "syntax/Parser.h"

namespace {

using namespace pyk;

bool useColor(driver::ColorMode mode) {
  if (mode == driver::ColorMode::Always)
    return true;
  if (mode == driver::ColorMode::Never)
    return false;
  const char* noColor = std::getenv("NO_COLOR");
  return isatty(STDERR_FILENO) && (noColor == nullptr || *noColor == '\0');
}

// `--emit=typed`: every selected function typed for each of its signatures (or `--sig`).
void emitTyped(const sema::ResolvedModule& resolved, const SourceFile& file,
               const driver::Options& options, DiagnosticEngine& diags, std::ostream& out) {
  std::optional<sema::FunctionSignature> cliSignature;
  if (!options.sig.empty()) {
    cliSignature = sema::parseSignature(
        options.sig, sema::StringLiteralLocation(SourceRange(), options.sig, nullptr), diags);
    if (!cliSignature)
      return;
  }
  sema::SpecializationSet set;
  bool selected = false;
  for (const sema::CompiledFunction& function : resolved.functions) {
    if (!options.kernel.empty() && function.name != options.kernel)
      continue;
    selected = true;
    std::vector<sema::FunctionSignature> signatures =
        cliSignature ? std::vector<sema::FunctionSignature>{*cliSignature} : function.signatures;
    if (signatures.empty()) {
      // Device functions are typed through their callers; a kernel needs types to start from.
      if (function.kind != sema::CompiledFunctionKind::DeviceFunction || !options.kernel.empty())
        diags.report(DiagKind::TypeKernelNeedsSignature, function.def->nameRange, {function.name});
      continue;
    }
    for (const sema::FunctionSignature& signature : signatures)
      sema::specialize(resolved, function, signature.params, set, diags, signature.returnType);
  }
  if (!selected) {
    diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
    return;
  }
  if (diags.hasErrors())
    return;
  for (const auto& spec : set.all()) {
    sema::printSpecialization(*spec, file, out);
    out << '\n';
  }
}

int runFile(const driver::Options& options) {
  std::string readError;
  std::optional<SourceFile> file = SourceFile::read(options.file, readError);
  const bool color = useColor(options.color);
  if (!file) {
    DiagnosticEngine diags;
    diags.report(DiagKind::CannotReadFile, SourceRange(), {options.file, readError});
    diags.render(std::cerr, color);
    return 1;
  }
  DiagnosticEngine diags(&*file);
  std::ostringstream output;
  runWithLargeStack([&] {
    ParseResult parsed = parseModule(*file, diags);
    if (parsed.module == nullptr)
      return;
    if (options.command == driver::Command::Emit && options.emit == "ast") {
      if (options.kernel.empty()) {
        ast::printAst(parsed.module, output);
        return;
      }
      for (const ast::Stmt* stmt : parsed.module->body)
        if (auto* def = stmt->as<ast::FunctionDef>();
            def != nullptr && def->name == options.kernel) {
          ast::printAst(def, output);
          return;
        }
      diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
      return;
    }
    sema::ResolvedModule resolved = sema::resolveModule(*parsed.module, diags);
    if (options.command == driver::Command::Emit && options.emit == "symbols" && !diags.hasErrors())
      sema::printResolvedModule(resolved, output);
    if (options.command == driver::Command::Emit && options.emit == "typed" && !diags.hasErrors())
      emitTyped(resolved, *file, options, diags, output);
    if (options.command == driver::Command::Check && !diags.hasErrors()) {
      // Functions whose decorator gives signatures are typed now, as numba compiles them eagerly.
      sema::SpecializationSet set;
      for (const sema::CompiledFunction& function : resolved.functions)
        for (const sema::FunctionSignature& signature : function.signatures)
          sema::specialize(resolved, function, signature.params, set, diags, signature.returnType);
    }
  });
  diags.render(std::cerr, color);
  if (diags.hasErrors())
    return 1;
  if (options.command == driver::Command::Emit) {
    if (options.output.empty() || options.output == "-") {
      std::cout << output.str();
    } else {
      std::ofstream out(options.output, std::ios::binary);
      out << output.str();
      if (!out) {
        std::cerr << "pykc: error: cannot write `" << options.output << "`\n";
        return 1;
      }
    }
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  std::optional<driver::Options> options = driver::parseCommandLine(args, error);
  if (!options) {
    std::cerr << "pykc: error: " << error << '\n';
    return 1;
  }
  switch (options->command) {
  case driver::Command::Help:
    std::cout << driver::usageText();
    return 0;
  case driver::Command::Version:
    std::cout << "pykc " << kVersion.major << '.' << kVersion.minor << '.' << kVersion.patch
              << " (front end: Python 3.11 syntax, numba.cuda kernel language)\n";
    return 0;
  default:
    try {
      return runFile(*options);
    } catch (const std::exception& e) {
      std::cerr << "pykc: internal compiler error: " << e.what() << '\n';
      return 70;
    }
  }
}
