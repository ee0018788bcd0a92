// ReportCommand: the facts of `pykc report`'s page, gathered through the jit library as `pykc
// emit` gathers them (driver/ReportCommand.h).
#include "driver/ReportCommand.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/Version.h"
#include "driver/ReportPage.h"
#include "driver/TypedEntries.h"
#include "sema/catalog/LibraryModule.h"

namespace pyk::driver {

namespace {

// cuobjdump on PATH, else in the toolkit ($CUDA_HOME, /usr/local/cuda); empty when absent.
std::string findCuobjdump() {
  std::vector<std::filesystem::path> folders;
  if (const char* path = std::getenv("PATH"))
    for (std::string_view rest = path; !rest.empty();) {
      const size_t colon = rest.find(':');
      folders.emplace_back(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  if (const char* home = std::getenv("CUDA_HOME"))
    folders.emplace_back(std::filesystem::path(home) / "bin");
  folders.emplace_back("/usr/local/cuda/bin");
  for (const auto& folder : folders) {
    const std::filesystem::path tool = folder / "cuobjdump";
    if (!folder.empty() && ::access(tool.c_str(), X_OK) == 0)
      return tool.string();
  }
  return {};
}

// The SASS and resource use (registers, stack, local memory: spills) of a CUBIN, or why not.
std::string disassemble(const std::string& cubin, std::string& whyNot) {
  const std::string tool = findCuobjdump();
  if (tool.empty()) {
    whyNot = "cuobjdump (the CUDA toolkit's) is not on PATH, in $CUDA_HOME/bin or "
             "/usr/local/cuda/bin";
    return {};
  }
  std::string path = (std::filesystem::temp_directory_path() / "pyk-report-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) {
    whyNot = "no temporary file for the CUBIN";
    return {};
  }
  const bool written =
      ::write(fd, cubin.data(), cubin.size()) == static_cast<ssize_t>(cubin.size());
  ::close(fd);
  std::string out;
  if (written) {
    const std::string command =
        "'" + tool + "' --dump-resource-usage --dump-sass '" + path + "' 2>&1";
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
      char buffer[4096];
      for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        out.append(buffer, n);
      if (::pclose(pipe) != 0) {
        whyNot = "cuobjdump failed: " + out;
        out.clear();
      }
    }
  }
  std::filesystem::remove(path);
  if (out.empty() && whyNot.empty())
    whyNot = "cuobjdump printed nothing";
  return out;
}

std::string whyNoImage(const jit::NvrtcFailure& failure) {
  switch (failure.kind) {
  case jit::NvrtcFailure::Kind::Unavailable:
    return "NVRTC is not available: " + failure.log;
  case jit::NvrtcFailure::Kind::NoArchitecture:
  case jit::NvrtcFailure::Kind::UnsupportedArch:
    return "NVRTC " + failure.nvrtcVersion +
           " does not compile for this architecture: " + failure.log;
  default:
    return "NVRTC made no image: " + failure.log + failure.generatedLines;
  }
}

} // namespace

void writeReport(const sema::ResolvedModule& resolved, const SourceFile& file,
                 const Options& options, const jit::JitSettings& settings, DiagnosticEngine& diags,
                 std::ostream& out) {
  const std::string arch = options.arch.empty() ? "sm_90" : options.arch;
  const jit::CudaTarget cuda{arch, false, false};
  sema::SpecializationSet set;
  const std::vector<Entry> entries =
      typeSelectedFunctions(resolved, file, options, cuda, set, diags);
  if (diags.hasErrors())
    return;
  ReportInput input;
  // The file, then each module a typed function comes from (its lines are in the units too).
  auto addSource = [&](const SourceFile& source) {
    for (const ReportSource& known : input.sources)
      if (known.name == source.path())
        return;
    ReportSource& added = input.sources.emplace_back();
    added.name = source.path();
    for (uint32_t line = 1; line <= source.lineCount(); ++line)
      added.lines.emplace_back(source.line(line));
  };
  addSource(file);
  input.generator = "Made by pykc " + std::to_string(kVersion.major) + "." +
                    std::to_string(kVersion.minor) + "." + std::to_string(kVersion.patch);
  for (const Entry& entry : entries) {
    ReportSection section;
    section.cudaTarget = arch;
    auto emitted = [&](jit::Target target, jit::Stage stage) {
      return jit::compileSpecialization(
          requestFor(resolved, file, entry, std::move(target), stage, set, diags, settings));
    };
    // Compiled by NVRTC where it is there: the unit's CUDA C++ and its PTX (or why none).
    const std::optional<jit::CompiledSpecialization> unit = emitted(cuda, jit::Stage::Compiled);
    const std::optional<jit::CompiledSpecialization> index32 =
        emitted(jit::CudaTarget{arch, false, true}, jit::Stage::Compiled);
    const std::optional<jit::CompiledSpecialization> cpu =
        emitted(jit::CpuTarget{}, jit::Stage::Emitted);
    if (!unit || !index32 || !cpu)
      return;
    section.description = unit->description;
    section.cudaSource = unit->cuda.source;
    section.cudaIndex32Source = index32->cuda.source;
    section.cpuSource = cpu->cpu.source;
    section.cpuMode = base::nameOf(cpu->cpu.mode);
    section.cpuModeReason = cpu->cpu.modeReason;
    // The kernel's typing first, then the device functions' (typed through their callers).
    for (const auto& spec : set.all())
      if (spec->function == entry.function && spec->params == entry.signature.params)
        section.typed.insert(section.typed.begin(), sema::typedFunctionText(*spec, file));
      else if (spec->function->kind == types::CompiledFunctionKind::DeviceFunction)
        section.typed.push_back(sema::typedFunctionText(*spec, file));
    if (unit->nvrtcFailure)
      section.ptxMissing = whyNoImage(*unit->nvrtcFailure);
    else
      section.ptx = unit->binary;
    if (!section.ptx.empty() && !index32->nvrtcFailure)
      section.ptxIndex32 = index32->binary;
    // SASS from a CUBIN where NVRTC made PTX and cuobjdump is there.
    const std::optional<jit::CompiledSpecialization> cubin =
        section.ptx.empty() ? std::nullopt
                            : emitted(jit::CudaTarget{arch, true, false}, jit::Stage::Compiled);
    if (!cubin)
      section.sassMissing = "no CUBIN: " + section.ptxMissing;
    else if (cubin->nvrtcFailure)
      section.sassMissing = "no CUBIN: " + whyNoImage(*cubin->nvrtcFailure);
    else
      section.sass = disassemble(cubin->binary, section.sassMissing);
    // The kernel's registers, stack, shared and local memory (where spills go), from the SASS.
    for (size_t at = section.sass.find("REG:"); at != std::string::npos;
         at = section.sass.find("REG:", at + 1)) {
      const size_t end = section.sass.find('\n', at);
      section.resourceUsage += (section.resourceUsage.empty() ? "" : "; ") +
                               section.sass.substr(at, end == std::string::npos ? end : end - at);
    }
    for (const auto& spec : set.all())
      if (spec->function->library != nullptr)
        addSource(spec->function->library->file);
    input.sections.push_back(std::move(section));
  }
  if (!diags.hasErrors())
    writeReportPage(input, out);
}

} // namespace pyk::driver
