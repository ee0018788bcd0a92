// main: the `pykc` command — reads a .pyk file, runs the front end, reports or emits.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "codegen/CpuEmitter.h"
#include "codegen/CudaEmitter.h"
#include "diag/DiagnosticEngine.h"
#include "driver/CommandLine.h"
#include "driver/KernelRunCommand.h"
#include "driver/NvrtcCompiler.h"
#include "driver/SupportHeaderText.h"
#include "pyk/cache.hpp"
#include "pyk/error.hpp"
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

// The generated lines an NVRTC log names (`generated.cu(12): error: ...`), quoted.
std::string describeGeneratedLines(const std::string& log, const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::string out;
  const std::string marker = "generated.cu(";
  for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    size_t number = std::strtoul(log.c_str() + at + marker.size(), nullptr, 10);
    if (number >= 1 && number <= lines.size())
      out += "generated line " + std::to_string(number) + ": " + lines[number - 1] + "\n";
  }
  return out;
}

// `--emit=typed|cuda|ptx|cubin`: every selected function typed for each of its signatures (or
// `--sig`), then printed typed, emitted as CUDA C++, or compiled by NVRTC.
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
  std::vector<const sema::Specialization*> entries;
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
      if (const sema::Specialization* spec = sema::specialize(resolved, function, signature.params,
                                                              set, diags, signature.returnType))
        entries.push_back(spec);
  }
  if (!selected) {
    diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
    return;
  }
  if (diags.hasErrors())
    return;
  if (options.emit == "typed") {
    for (const auto& spec : set.all()) {
      sema::printSpecialization(*spec, file, out);
      out << '\n';
    }
    return;
  }
  for (const sema::Specialization* entry : entries) {
    if (options.emit == "cpu") {
      codegen::CpuEmitOptions cpuOptions;
      if (!options.block.empty())
        driver::parseBlockShape(options.block, cpuOptions.blockShape); // checked by the parser
      codegen::CpuUnit unit = codegen::emitCpu(resolved, file, *entry, diags, cpuOptions);
      if (diags.hasErrors())
        return;
      out << "// mode: " << codegen::nameOf(unit.mode)
          << (unit.fiberReason.empty() ? "" : " (" + unit.fiberReason + ")") << "\n"
          << unit.source << '\n';
      continue;
    }
    codegen::EmittedUnit unit = codegen::emitCuda(resolved, file, set, *entry, diags);
    if (diags.hasErrors())
      return;
    if (options.emit == "cuda") {
      out << unit.source << '\n';
      continue;
    }
    if (std::string whyNot; !driver::haveNvrtc(&whyNot)) {
      diags.report(DiagKind::NvrtcUnavailable, SourceRange(), {options.emit, whyNot});
      return;
    }
    const std::string arch = options.arch.empty() ? "sm_90" : options.arch;
    driver::NvrtcOutput compiled = driver::compileWithNvrtc(
        unit.source, file.path() + ".cu", arch, options.emit == "cubin",
        entry->function->options.fastmath.value_or(false)
            ? std::vector<std::string>{"--use_fast_math"}
            : std::vector<std::string>{},
        {{std::string(driver::kSupportHeaderName), std::string(driver::supportHeaderText())}});
    if (!compiled.ok && compiled.log.find("--gpu-architecture") != std::string::npos) {
      diags.report(DiagKind::UnsupportedArch, SourceRange(), {driver::nvrtcVersion(), arch});
      return;
    }
    if (!compiled.ok) {
      // pykc's own output failed to compile: a bug in pykc. Compile it once more without
      // #line, so NVRTC names the generated lines, and quote them.
      DiagnosticEngine quiet;
      codegen::EmittedUnit plain = codegen::emitCuda(resolved, file, set, *entry, quiet, false);
      driver::NvrtcOutput again = driver::compileWithNvrtc(
          plain.source, "generated.cu", arch, false, {},
          {{std::string(driver::kSupportHeaderName), std::string(driver::supportHeaderText())}});
      diags.report(DiagKind::InternalError, entry->function->def->nameRange,
                   {"NVRTC rejected the CUDA C++ generated for `" + entry->describe() + "`:\n" +
                    compiled.log + describeGeneratedLines(again.log, plain.source)});
      return;
    }
    out << (options.emit == "cubin" ? compiled.cubin : compiled.ptx);
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
    const bool typedEmit = options.emit == "typed" || options.emit == "cuda" ||
                           options.emit == "cpu" || options.emit == "ptx" ||
                           options.emit == "cubin";
    if (options.command == driver::Command::Emit && typedEmit && !diags.hasErrors())
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

// `pykc cache list|clear`.
int runCacheCommand(driver::Command command) {
  if (command == driver::Command::CacheClear) {
    std::size_t removed = pyk::clearCache();
    std::cout << "removed " << removed << (removed == 1 ? " entry" : " entries") << '\n';
    return 0;
  }
  pyk::CacheContents contents = pyk::listCache();
  std::uint64_t total = 0;
  std::cout << "cache " << contents.folder.string() << '\n';
  for (const pyk::CacheEntrySummary& e : contents.entries) {
    std::time_t t = std::chrono::system_clock::to_time_t(e.lastUse);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
    std::cout << e.key << "  " << e.bytes << " bytes  last used " << when << '\n';
    total += e.bytes;
  }
  std::cout << contents.entries.size() << (contents.entries.size() == 1 ? " entry, " : " entries, ")
            << total << " of " << contents.maxBytes << " bytes\n";
  return 0;
}

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
  case driver::Command::Run:
    return driver::runKernelCommand(*options);
  case driver::Command::CacheList:
  case driver::Command::CacheClear:
    try {
      return runCacheCommand(options->command);
    } catch (const pyk::Error& e) {
      std::cerr << "pykc: error: " << e.what() << '\n';
      return 1;
    }
  case driver::Command::Version:
    std::cout << "pykc " << kVersion.major << '.' << kVersion.minor << '.' << kVersion.patch
              << " (Python 3.11 syntax, numba.cuda kernel language; NVRTC "
              << driver::nvrtcVersion() << ")\n";
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
