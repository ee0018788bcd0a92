// BuildCommand: see BuildCommand.h. Each file is parsed and resolved; each signature goes to the
// file that defines its kernel, and each kernel's declared signatures are built too. Every
// specialization is typed and emitted for the CPU backend and compiled by NVRTC for each
// architecture (CUBIN) plus PTX of the last, in both index variants, which the toolkit's
// fatbinary packs into one fatbin each. The outputs are written whole (a temporary name, then
// renamed), and only once everything compiled.
#include "driver/BuildCommand.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <iostream>
#include <map>
#include <string_view>

#include "aot/AotModuleWriter.h"
#include "base/Error.h"
#include "base/FileReplacement.h"
#include "diag/DiagnosticEngine.h"
#include "jit/ChildProcess.h"
#include "jit/CompileSpecialization.h"
#include "jit/SupportHeaders.h"
#include "sema/resolve/FrontEnd.h"
#include "sema/resolve/LinkedSources.h"
#include "sema/resolve/SignatureParser.h"
#include "sema/resolve/UserModules.h"

namespace pyk::driver {

namespace fs = std::filesystem;

namespace {

// `80`, `sm_80` or `compute_80` -> `80`; empty when it is not such a number.
std::string archDigits(const std::string& arch) {
  std::string a = arch;
  for (const char* prefix : {"sm_", "compute_"})
    if (a.rfind(prefix, 0) == 0)
      a = a.substr(std::string(prefix).size());
  if (a.empty() || a.size() > 4 ||
      !std::ranges::all_of(a, [](char c) { return c >= '0' && c <= '9'; }))
    return "";
  return a;
}

struct LoadedFile {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<DiagnosticEngine> diags;
  sema::FrontEndResult front; // the syntax tree and the resolved module
  aot::AotModule module;
  sema::SpecializationSet set;
};

// `text` written whole to `path` (a temporary name, then renamed: base/FileReplacement).
void writeFile(const fs::path& path, std::string_view text) {
  base::replaceFile(path, text, 0644, ErrorKind::File);
}

// The fatbin of one variant of `entry`: NVRTC's CUBIN for each architecture and PTX of the last
// (none when the kernel links GPU code, which only nvJitLink's CUBINs carry).
// Reports to `diags` and returns false on failure.
bool compileFatbin(LoadedFile& f, aot::AotSpecialization& s, bool index32,
                   const BuildOptions& options, const jit::JitSettings& jitSettings,
                   const fs::path& work, size_t unit) {
  std::vector<std::string> argv = {options.fatbinary, "-64"};
  const fs::path stem =
      work / (f.module.name + "_" + std::to_string(unit) + (index32 ? "_i32" : ""));
  std::string targets;
  for (size_t i = 0; i <= options.archs.size(); ++i) {
    const bool ptx = i == options.archs.size();
    const std::string arch = archDigits(options.archs[ptx ? i - 1 : i]);
    const jit::CudaTarget target{"sm_" + arch, !ptx, index32};
    jit::SpecializationRequest request{.module = f.front.resolved,
                                       .file = *f.file,
                                       .function = *s.function,
                                       .params = s.signature.params,
                                       .returnType = s.signature.returnType,
                                       .target = target,
                                       .diags = *f.diags,
                                       .stage = jit::Stage::Compiled,
                                       .settings = jitSettings,
                                       .set = &f.set};
    std::optional<jit::CompiledSpecialization> compiled = jit::compileSpecialization(request);
    if (!compiled)
      return false;
    if (compiled->nvrtcFailure &&
        compiled->nvrtcFailure->kind == jit::NvrtcFailure::Kind::Unavailable)
      throw Error(ErrorKind::Compile,
                  "--arch needs NVRTC (the CUDA toolkit) where pykc build runs: " +
                      compiled->nvrtcFailure->log);
    if (compiled->nvrtcFailure &&
        compiled->nvrtcFailure->kind == jit::NvrtcFailure::Kind::LinkedSourceRejected)
      throw Error(ErrorKind::Compile, "NVRTC rejected the CUDA C++ linked with " +
                                          compiled->description + " (" +
                                          compiled->nvrtcFailure->generatedLines + "):\n" +
                                          compiled->nvrtcFailure->log);
    if (compiled->nvrtcFailure &&
        compiled->nvrtcFailure->kind == jit::NvrtcFailure::Kind::LinkRejected)
      throw Error(ErrorKind::Compile,
                  "nvJitLink could not link " + compiled->nvrtcFailure->generatedLines + " with " +
                      compiled->description + ":\n" + compiled->nvrtcFailure->log);
    if (compiled->nvrtcFailure && compiled->nvrtcFailure->kind != jit::NvrtcFailure::Kind::Rejected)
      throw Error(ErrorKind::Compile, "NVRTC " + compiled->nvrtcFailure->nvrtcVersion +
                                          " cannot compile for " + target.describe() + ": " +
                                          compiled->nvrtcFailure->log);
    if (compiled->nvrtcFailure) {
      f.diags->report(DiagKind::InternalError, s.function->def->nameRange,
                      {"NVRTC could not compile `" + compiled->description + "` for " +
                       target.describe() + ":\n" + compiled->nvrtcFailure->log +
                       compiled->nvrtcFailure->generatedLines});
      return false;
    }
    s.cudaEntry = compiled->cuda.entryPoint;
    s.cooperative = compiled->cuda.cooperative;
    // A kernel linking GPU code (numba's link= of PTX, a CUBIN...) is whole only in nvJitLink's
    // CUBINs: its PTX, which lacks that code, is not put in the fatbin.
    if (!compiled->unlinkedCode.empty())
      continue;
    const fs::path image = stem.string() + (ptx ? ".ptx" : "_sm" + arch + ".cubin");
    writeFile(image, compiled->binary);
    argv.push_back(std::string("--image3=kind=") + (ptx ? "ptx" : "elf") + ",sm=" + arch +
                   ",file=" + image.string());
    targets += (targets.empty() ? "" : " ") + std::string(ptx ? "compute_" : "sm_") + arch;
  }
  const fs::path fatbin = stem.string() + ".fatbin";
  argv.push_back("--create=" + fatbin.string());
  const fs::path log = stem.string() + ".log";
  const jit::ChildOutcome outcome = jit::runChild(argv, log);
  if (!outcome.succeeded)
    throw Error(ErrorKind::Compile,
                outcome.startError != 0
                    ? "cannot run the CUDA toolkit's fatbinary `" + options.fatbinary + "`"
                    : "`" + options.fatbinary + "` failed (exit status " +
                          std::to_string(outcome.exitStatus) + "):\n" + jit::readWholeFile(log));
  s.fatbin[index32 ? 1 : 0] = jit::readWholeFile(fatbin);
  s.cudaTargets = targets;
  return true;
}

} // namespace

std::optional<BuildOptions> parseBuildCommand(const std::vector<std::string>& args,
                                              std::string& error) {
  BuildOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto take = [&](const std::string& name, std::string& out) -> std::optional<bool> {
      if (arg == name) {
        if (i + 1 >= args.size() || args[i + 1].empty()) {
          error = "option `" + name + "` needs a value";
          return std::nullopt;
        }
        out = args[++i];
        return true;
      }
      if (arg.rfind(name + "=", 0) == 0) {
        out = arg.substr(name.size() + 1);
        if (out.empty()) {
          error = "option `" + name + "` needs a value";
          return std::nullopt;
        }
        return true;
      }
      return false;
    };
    std::string value;
    bool matched = false;
    for (const char* name :
         {"--signature", "--arch", "--out-dir", "--fatbinary", "--include-dir", "--link"}) {
      std::optional<bool> r = take(name, value);
      if (!r)
        return std::nullopt;
      if (!*r)
        continue;
      matched = true;
      const std::string n = name;
      if (n == "--signature")
        o.signatures.push_back(value);
      else if (n == "--arch") {
        if (archDigits(value).empty()) {
          error = "`--arch` takes a compute capability such as 80, sm_80 or compute_80, not `" +
                  value + "`";
          return std::nullopt;
        }
        o.archs.push_back(value);
      } else if (n == "--out-dir")
        o.outDir = value;
      else if (n == "--include-dir")
        o.includeDirs.push_back(value);
      else if (n == "--link")
        o.links.push_back(value);
      else
        o.fatbinary = value;
      break;
    }
    if (matched)
      continue;
    if (arg == "--no-cpu") {
      o.cpu = false;
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      error = "unknown option `" + arg + "` for `pykc build`";
      return std::nullopt;
    }
    o.files.push_back(arg);
  }
  if (o.files.empty()) {
    error = "`pykc build` needs a .pyk file";
    return std::nullopt;
  }
  if (o.outDir.empty()) {
    error = "`pykc build` needs `--out-dir DIR`";
    return std::nullopt;
  }
  if (!o.archs.empty() && o.fatbinary.empty())
    o.fatbinary = "fatbinary";
  if (o.archs.empty() && !o.cpu) {
    error = "`pykc build --no-cpu` without `--arch` builds nothing";
    return std::nullopt;
  }
  return o;
}

int runBuildCommand(const BuildOptions& options, bool color,
                    const JitSettingsSource& runtimeSettings) {
  std::vector<std::unique_ptr<LoadedFile>> files;
  bool failed = false;
  std::map<std::string, std::string> stems; // module name -> file
  for (const std::string& path : options.files) {
    auto f = std::make_unique<LoadedFile>();
    std::string readError;
    std::optional<SourceFile> file = SourceFile::read(path, readError);
    if (!file) {
      std::cerr << "pykc: error: " << path << ": " << readError << '\n';
      return 1;
    }
    f->file = std::make_unique<SourceFile>(std::move(*file));
    f->diags = std::make_unique<DiagnosticEngine>(f->file.get());
    sema::ImportSearch search;
    search.dirs = options.includeDirs;
    search.links = options.links;
    f->front = sema::runFrontEnd(*f->file, *f->diags, sema::FrontEndStop::Resolved, &search);
    std::string stem = fs::path(path).stem().string();
    for (char& c : stem)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
        c = '_';
    if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0])))
      stem = "_" + stem;
    if (auto [it, inserted] = stems.emplace(stem, path); !inserted) {
      std::cerr << "pykc: error: `" << it->second << "` and `" << path
                << "` would both be built as `" << stem << "` (name files apart)\n";
      return 1;
    }
    f->module.name = stem;
    f->module.sourcePath = path;
    f->module.source = f->file->text();
    for (const sema::ImportSearch::Embedded& e : sema::importedSources(f->front.resolved))
      f->module.imports.push_back({e.module, e.path, e.text});
    // The CUDA C++ its kernels link, so that loading the module reads no file either.
    for (const sema::ImportSearch::Embedded& e : sema::embeddedLinkedSources(f->front.resolved))
      f->module.imports.push_back({e.module, e.path, e.text});
    failed |= f->diags->hasErrors();
    files.push_back(std::move(f));
  }
  if (failed) {
    for (const auto& f : files)
      f->diags->render(std::cerr, color);
    return 1;
  }

  // Each specialization asked for, in its file: the kernels' declared signatures, then --signature.
  auto add = [](LoadedFile& f, const sema::CompiledFunction& function,
                const types::FunctionSignature& signature) {
    for (const aot::AotSpecialization& s : f.module.specializations)
      if (s.function == &function && s.signature.params == signature.params)
        return;
    aot::AotSpecialization s;
    s.function = &function;
    s.signature = signature;
    f.module.specializations.push_back(std::move(s));
  };
  for (const auto& f : files)
    for (const sema::CompiledFunction& function : f->front.resolved.functions)
      if (function.kind == types::CompiledFunctionKind::Kernel && !function.shadowed)
        for (const types::FunctionSignature& s : function.signatures)
          add(*f, function, s);
  for (const std::string& text : options.signatures) {
    const size_t open = text.find('(');
    std::string name = text.substr(0, open);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (open == std::string::npos || name.empty()) {
      std::cerr << "pykc: error: `--signature " << text
                << "` names no kernel: write `kernel(type, ...)`, e.g. "
                   "`saxpy(float32, float32[::1], float32[::1])`\n";
      return 1;
    }
    LoadedFile* owner = nullptr;
    const sema::CompiledFunction* function = nullptr;
    for (const auto& f : files)
      if (const sema::CompiledFunction* found = f->front.resolved.function(name)) {
        if (owner != nullptr) {
          std::cerr << "pykc: error: `" << name << "` is defined in both `"
                    << owner->module.sourcePath << "` and `" << f->module.sourcePath
                    << "`: build them apart (one pyk_add_kernels call each)\n";
          return 1;
        }
        owner = f.get();
        function = found;
      }
    if (function == nullptr) {
      std::string known;
      for (const auto& f : files)
        for (const sema::CompiledFunction& fn : f->front.resolved.functions)
          if (fn.kind == types::CompiledFunctionKind::Kernel && !fn.shadowed)
            known += (known.empty() ? "" : ", ") + fn.qualifiedName;
      std::cerr << "pykc: error: `--signature " << text << "`: no kernel named `" << name << "` in "
                << options.files.size() << (options.files.size() == 1 ? " file" : " files")
                << (known.empty() ? "" : " (kernels: " + known + ")") << '\n';
      return 1;
    }
    if (function->kind != types::CompiledFunctionKind::Kernel) {
      std::cerr << "pykc: error: `--signature " << text << "`: `" << name << "` is a "
                << types::nameOf(function->kind)
                << "; only @cuda.jit kernels are built ahead of time yet (ufuncs and device "
                   "functions are compiled by the JIT)\n";
      return 1;
    }
    DiagnosticEngine signatureDiags;
    const std::string types = text.substr(open);
    std::optional<types::FunctionSignature> signature = sema::parseSignature(
        types, sema::StringLiteralLocation(SourceRange(), types, nullptr), signatureDiags);
    if (!signature) {
      std::cerr << "pykc: error: `--signature " << text << "`:\n";
      signatureDiags.render(std::cerr, color);
      return 1;
    }
    if (!function->signatures.empty() &&
        std::ranges::none_of(function->signatures, [&](const types::FunctionSignature& s) {
          return s.params == signature->params;
        })) {
      std::cerr << "pykc: error: `--signature " << text << "`: `" << name
                << "` declares its signatures in its decorator, and this is not one of them\n";
      return 1;
    }
    add(*owner, *function, *signature);
  }

  // --arch compiles with the runtime's settings (its NVRTC), without the disk cache.
  jit::JitSettings jitSettings;
  if (!options.archs.empty()) {
    jitSettings = runtimeSettings();
    jitSettings.cacheFolder.clear();
  }
  std::error_code ec;
  fs::create_directories(options.outDir, ec);
  const fs::path work = fs::path(options.outDir) / (".pykc-build-" + std::to_string(::getpid()));
  fs::create_directories(work, ec);
  if (ec) {
    std::cerr << "pykc: error: cannot create `" << work.string() << "`: " << ec.message() << '\n';
    return 1;
  }
  try {
    for (const auto& f : files) {
      for (size_t i = 0; i < f->module.specializations.size() && !f->diags->hasErrors(); ++i) {
        aot::AotSpecialization& s = f->module.specializations[i];
        if (options.cpu) {
          jit::SpecializationRequest request{.module = f->front.resolved,
                                             .file = *f->file,
                                             .function = *s.function,
                                             .params = s.signature.params,
                                             .returnType = s.signature.returnType,
                                             .target = jit::CpuTarget{},
                                             .diags = *f->diags,
                                             .stage = jit::Stage::Emitted,
                                             .set = &f->set};
          std::optional<jit::CompiledSpecialization> unit = jit::compileSpecialization(request);
          if (!unit)
            break;
          s.cpu = std::move(unit->cpu);
          s.hasCpu = true;
        }
        if (!options.archs.empty())
          for (bool index32 : {false, true})
            if (!compileFatbin(*f, s, index32, options, jitSettings, work, i))
              break;
      }
      failed |= f->diags->hasErrors();
      f->diags->render(std::cerr, color);
    }
  } catch (const Error& e) {
    fs::remove_all(work, ec);
    std::cerr << "pykc: error: " << e.what() << '\n';
    return 1;
  }
  fs::remove_all(work, ec);
  if (failed)
    return 1;
  const fs::path out = options.outDir;
  try {
    writeFile(out / "pyk_cpu_support.h", jit::cpuSupportHeaderText());
    for (const auto& f : files) {
      const aot::AotModule& m = f->module;
      writeFile(out / (m.name + ".hpp"), aot::headerText(m));
      writeFile(out / (m.name + ".cpp"), aot::imageText(m));
      writeFile(out / (m.name + "_cpu.cpp"), aot::cpuUnitsText(m));
    }
  } catch (const Error& e) {
    std::cerr << "pykc: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

} // namespace pyk::driver
