// CompileCommands: `pykc check` and `pykc emit`: a file through the front end
// (sema/resolve/FrontEnd.h), then its functions typed for their signatures (or --sig) and printed
// at the stage asked for: the syntax tree, the resolved symbols, the typed specializations, the
// typed IR (and the CPU pipeline's conclusions after a pass), CUDA or CPU C++, PTX, CUBIN or a
// shared object.
#include "driver/CompileCommands.h"
#include "driver/ReportCommand.h"
#include "driver/TypedEntries.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/Error.h"
#include "base/LargeStack.h"
#include "codegen/cpu/CpuPipeline.h"
#include "diag/DiagnosticEngine.h"
#include "ir/IrPrinter.h"
#include "jit/CompileSpecialization.h"
#include "sema/resolve/FrontEnd.h"
#include "sema/resolve/ResolvedModulePrinter.h"
#include "sema/resolve/SignatureParser.h"
#include "sema/resolve/UserModules.h"
#include "sema/typing/SpecializationPrinter.h"
#include "syntax/AstPrinter.h"

namespace pyk::driver {

bool useColor(ColorMode mode) {
  if (mode == ColorMode::Always)
    return true;
  if (mode == ColorMode::Never)
    return false;
  const char* noColor = std::getenv("NO_COLOR");
  return isatty(STDERR_FILENO) && (noColor == nullptr || *noColor == '\0');
}

namespace {

// Reports why NVRTC made no PTX or CUBIN for `entry`.
void reportNvrtcFailure(const jit::NvrtcFailure& failure, const jit::CompiledSpecialization& unit,
                        const Entry& entry, const Options& options, const std::string& arch,
                        DiagnosticEngine& diags) {
  switch (failure.kind) {
  case jit::NvrtcFailure::Kind::Unavailable:
    diags.report(DiagKind::NvrtcUnavailable, SourceRange(), {options.emit, failure.log});
    return;
  case jit::NvrtcFailure::Kind::NoArchitecture:
  case jit::NvrtcFailure::Kind::UnsupportedArch:
    diags.report(DiagKind::UnsupportedArch, SourceRange(), {failure.nvrtcVersion, arch});
    return;
  case jit::NvrtcFailure::Kind::LinkedSourceRejected:
    diags.report(DiagKind::LinkedSourceRejected, entry.function->def->nameRange,
                 {failure.generatedLines, unit.description, failure.log});
    return;
  case jit::NvrtcFailure::Kind::LinkRejected:
    diags.report(DiagKind::LinkRejected, entry.function->def->nameRange,
                 {failure.generatedLines, unit.description, failure.log});
    return;
  case jit::NvrtcFailure::Kind::Rejected:
    // pykc's own output failed to compile: a bug in pykc, with the generated lines NVRTC names.
    diags.report(DiagKind::InternalError, entry.function->def->nameRange,
                 {"NVRTC rejected the CUDA C++ generated for `" + unit.description + "`:\n" +
                  failure.log + failure.generatedLines});
    return;
  }
}

// `--emit=ir --print-after=PASS [--block X,Y,Z]`: the CPU pipeline run on the module's kernel,
// and what it has concluded after PASS each time PASS runs (a split attempt may run again).
void printCpuPlanning(const ir::Module& module, const Options& options, std::ostream& out) {
  if (module.entry().kind != types::CompiledFunctionKind::Kernel) {
    out << "no cpu plan: `" << module.entry().name << "` is no kernel\n\n";
    return;
  }
  int runs = 0;
  codegen::planCpuExecution(module, !options.block.empty(),
                            [&](const codegen::CpuPass& pass, const codegen::CpuPlanning& p) {
                              if (options.printAfter != pass.name)
                                return;
                              out << "after " << pass.name << (runs++ ? " (again)" : "") << ":\n";
                              codegen::printPlanning(out, p);
                              out << '\n';
                            });
  if (runs == 0)
    out << "no cpu plan after " << options.printAfter
        << ": the pipeline ended before it (see ExecutionModeDecision)\n\n";
}

// `--emit=typed|ir|cuda|cpu|ptx|cubin`: every selected function typed for each of its signatures
// (or `--sig`), then printed typed, lowered to the typed IR and printed, emitted as CUDA C++ or
// CPU C++, or compiled by NVRTC. Every
// signature is typed first, so all type errors are reported before anything is emitted.
void emitTyped(const sema::ResolvedModule& resolved, const SourceFile& file, const Options& options,
               const jit::JitSettings& settings, DiagnosticEngine& diags, std::ostream& out) {
  const std::string arch = options.arch.empty() ? "sm_90" : options.arch;
  const jit::CudaTarget cuda_target{arch, options.emit == "cubin", options.index32};
  sema::SpecializationSet set;
  const std::vector<Entry> entries =
      typeSelectedFunctions(resolved, file, options, cuda_target, set, diags);
  if (diags.hasErrors())
    return;
  if (options.emit == "typed") {
    for (const auto& spec : set.all()) {
      sema::printSpecialization(*spec, file, out);
      out << '\n';
    }
    return;
  }
  for (const Entry& entry : entries) {
    if (options.emit == "ir") {
      std::optional<jit::CompiledSpecialization> unit = jit::compileSpecialization(
          requestFor(resolved, file, entry, cuda_target, jit::Stage::Lowered, set, diags));
      if (!unit)
        return;
      ir::print(out, *unit->ir);
      out << '\n';
      if (!options.printAfter.empty())
        printCpuPlanning(*unit->ir, options, out);
      continue;
    }
    if (options.emit == "cpu" || options.emit == "so") {
      jit::CpuTarget cpu;
      if (!options.block.empty())
        parseBlockShape(options.block, cpu.options.blockShape); // checked by the parser
      const jit::Stage stage = options.emit == "so" ? jit::Stage::Compiled : jit::Stage::Emitted;
      std::optional<jit::CompiledSpecialization> unit = jit::compileSpecialization(
          requestFor(resolved, file, entry, cpu, stage, set, diags, settings));
      if (!unit)
        return;
      if (options.emit == "so") {
        out << unit->binary;
        continue;
      }
      out << "// mode: " << base::nameOf(unit->cpu.mode) << " (" << unit->cpu.modeReason << ")\n"
          << unit->cpu.source << '\n';
      continue;
    }
    const jit::Stage stage = options.emit == "cuda" ? jit::Stage::Emitted : jit::Stage::Compiled;
    std::optional<jit::CompiledSpecialization> unit = jit::compileSpecialization(
        requestFor(resolved, file, entry, cuda_target, stage, set, diags, settings));
    if (!unit)
      return;
    if (options.emit == "cuda") {
      out << unit->cuda.source << '\n';
      continue;
    }
    if (unit->nvrtcFailure) {
      reportNvrtcFailure(*unit->nvrtcFailure, *unit, entry, options, arch, diags);
      return;
    }
    if (!unit->nvrtcWarnings.empty())
      diags.report(DiagKind::NvrtcWarned, entry.function->def->nameRange,
                   {unit->description, unit->nvrtcWarnings});
    out << unit->binary;
  }
}

} // namespace

int runCompileCommand(const Options& options, const JitSettingsSource& runtimeSettings) {
  std::string readError;
  std::optional<SourceFile> file = SourceFile::read(options.file, readError);
  const bool color = useColor(options.color);
  if (!file) {
    DiagnosticEngine diags;
    diags.report(DiagKind::CannotReadFile, SourceRange(), {options.file, readError});
    diags.render(std::cerr, color);
    return 1;
  }
  // --emit=ptx|cubin|so compile with the runtime's settings (NVRTC, the host compiler, the
  // precompiled support header); pykc keeps no disk cache but for --emit=so, which compiles as a
  // CPU launch does.
  jit::JitSettings jitSettings;
  const bool report = options.command == Command::Report;
  if (options.emit == "ptx" || options.emit == "cubin" || options.emit == "so" || report) {
    try {
      jitSettings = runtimeSettings();
      if (options.emit != "so")
        jitSettings.cacheFolder.clear();
    } catch (const Error& e) {
      std::cerr << "pykc: error: " << e.what() << '\n';
      return 1;
    }
  }
  DiagnosticEngine diags(&*file);
  std::ostringstream output;
  const bool astOnly = options.command == Command::Emit && options.emit == "ast";
  sema::ImportSearch search;
  search.dirs = options.includeDirs;
  search.links = options.links;
  const sema::FrontEndResult front = sema::runFrontEnd(
      *file, diags, astOnly ? sema::FrontEndStop::Parsed : sema::FrontEndStop::Resolved, &search);
  // The printers and typing recurse with the program's nesting: on a large stack too.
  base::runWithLargeStack([&] {
    const ast::Module* parsed = front.parsed.module;
    if (parsed == nullptr)
      return;
    if (astOnly) {
      if (options.kernel.empty()) {
        ast::printAst(parsed, output);
        return;
      }
      for (const ast::Stmt* stmt : parsed->body)
        if (auto* def = stmt->as<ast::FunctionDef>();
            def != nullptr && def->name == options.kernel) {
          ast::printAst(def, output);
          return;
        }
      diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
      return;
    }
    const sema::ResolvedModule& resolved = front.resolved;
    if (options.command == Command::Emit && options.emit == "symbols" && !diags.hasErrors())
      sema::printResolvedModule(resolved, output);
    const bool typedEmit = options.emit == "typed" || options.emit == "ir" ||
                           options.emit == "cuda" || options.emit == "cpu" ||
                           options.emit == "ptx" || options.emit == "cubin" || options.emit == "so";
    if (options.command == Command::Emit && typedEmit && !diags.hasErrors())
      emitTyped(resolved, *file, options, jitSettings, diags, output);
    if (report && !diags.hasErrors())
      writeReport(resolved, *file, options, jitSettings, diags, output);
    if (options.command == Command::Check && !diags.hasErrors() && !options.kernel.empty()) {
      // `--kernel NAME [--sig SIG]`: that function typed for the signature, or its own.
      const sema::CompiledFunction* function = resolved.function(options.kernel);
      if (function == nullptr) {
        diags.report(DiagKind::NoSuchFunction, SourceRange(), {options.kernel, options.file});
        return;
      }
      std::vector<types::FunctionSignature> signatures = function->signatures;
      if (!options.sig.empty()) {
        std::optional<types::FunctionSignature> sig = sema::parseSignature(
            options.sig, sema::StringLiteralLocation(SourceRange(), options.sig, nullptr), diags);
        if (!sig)
          return;
        signatures = {*sig};
      }
      if (signatures.empty())
        diags.report(DiagKind::TypeKernelNeedsSignature, function->def->nameRange,
                     {function->name});
      sema::SpecializationSet set;
      for (const types::FunctionSignature& signature : signatures)
        jit::compileSpecialization(requestFor(resolved, *file, Entry{function, signature},
                                              jit::CpuTarget{}, jit::Stage::Typed, set, diags));
      return;
    }
    if (options.command == Command::Check && !diags.hasErrors()) {
      // Functions whose decorator gives signatures are typed now, as numba compiles them eagerly.
      sema::SpecializationSet set;
      // (A definition a later one replaces is typed too: numba compiles it when it is defined.)
      for (const sema::CompiledFunction& function : resolved.functions)
        for (const types::FunctionSignature& signature : function.signatures)
          jit::compileSpecialization(requestFor(resolved, *file, Entry{&function, signature},
                                                jit::CpuTarget{}, jit::Stage::Typed, set, diags));
    }
  });
  diags.render(std::cerr, color);
  if (diags.hasErrors())
    return 1;
  if (options.command == Command::Emit || report) {
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

} // namespace pyk::driver
