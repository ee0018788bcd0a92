// AheadOfTime: see AheadOfTime.h. A module image is matched by the kernel's qualified name and
// its argument types spelt as numba spells them, the spelling `pykc build` wrote.
#include "module/AheadOfTime.h"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "cpu/pyk_cpu_support.h"
#include "module/ArgumentTypes.h"
#include "pyk/version.hpp"

namespace pyk::detail {

const aot::CpuKernel* aheadCpuKernel(const ModuleState& m, const std::string& kernel,
                                     const std::vector<types::NumbaType>& params) {
  if (m.aot == nullptr)
    return nullptr;
  for (size_t i = 0; i < m.aot->cpu.size(); ++i)
    if (kernel == m.aot->cpu[i].kernel && m.aheadCpuParams[i] == params)
      return &m.aot->cpu[i];
  return nullptr;
}

const aot::CudaKernel* aheadCudaKernel(const ModuleState& m, const std::string& kernel,
                                       const std::vector<types::NumbaType>& params, bool index32) {
  if (m.aot == nullptr)
    return nullptr;
  for (size_t i = 0; i < m.aot->cuda.size(); ++i)
    if (kernel == m.aot->cuda[i].kernel && m.aot->cuda[i].index32 == index32 &&
        m.aheadCudaParams[i] == params)
      return &m.aot->cuda[i];
  return nullptr;
}

std::string describeSpecialization(const std::string& kernel,
                                   const std::vector<types::NumbaType>& params) {
  return describeCall(kernel, params) + " -> none";
}

void throwNotBuiltAhead(const ModuleState& m, const std::string& kernel,
                        const std::string& description, const std::string& backend,
                        const Error& jitError) {
  std::string built;
  for (const std::string& s : aot::signatures(*m.aot, kernel))
    built += "\n  " + kernel + s;
  throw Error(
      jitError.kind(),
      m.path() + ": " + description + " was not built ahead of time for " + backend +
          (built.empty() ? " (nothing of `" + kernel + "` was)" : "; built ahead:" + built) +
          "\nand the JIT could not compile it: " + jitError.what());
}

} // namespace pyk::detail

namespace pyk {

namespace {
std::atomic<int> cudaImages{0};
} // namespace

bool aot::register_image(const ModuleImage& image) {
  if (!image.cuda.empty())
    cudaImages.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool aot::has_cuda_images() {
  return cudaImages.load(std::memory_order_relaxed) > 0;
}

std::vector<std::string> aot::signatures(const ModuleImage& image, const std::string& kernel) {
  std::vector<std::string> out;
  auto add = [&](const char* name, const char* signature) {
    if (kernel == name && std::ranges::find(out, signature) == out.end())
      out.emplace_back(signature);
  };
  for (const CpuKernel& k : image.cpu)
    add(k.kernel, k.signature);
  for (const CudaKernel& k : image.cuda)
    add(k.kernel, k.signature);
  return out;
}

Module load(const aot::ModuleImage& image) {
  if (std::string_view(image.pyk_version) != PYK_VERSION_STRING ||
      image.cpu_abi_version != cpu::kAbiVersion)
    throw Error(ErrorKind::Compile,
                std::string(image.path) + ": built ahead of time by pyk " + image.pyk_version +
                    " (CPU ABI " + std::to_string(image.cpu_abi_version) +
                    "), but this program links pyk " + PYK_VERSION_STRING + " (CPU ABI " +
                    std::to_string(cpu::kAbiVersion) + "): rebuild it with this version's pykc");
  jit::ImportOptions imports; // the modules it imports, as built: no file is read
  for (const aot::ImportedSource& s : image.imports)
    imports.embedded.push_back({s.module, s.path, std::string(s.source)});
  Module m(std::make_shared<detail::ModuleState>(
      jit::SourceModule::fromText(std::string(image.source), image.path, std::move(imports))));
  detail::ModuleState& state = *m.state_;
  state.aot = &image;
  // The signatures built ahead, parsed once: a launch picks among them as among declared ones.
  auto parse = [&](const char* kernel, const char* signature) {
    std::string error;
    std::optional<types::FunctionSignature> parsed = jit::parseSignature(signature, error);
    if (!parsed)
      throw Error(ErrorKind::Internal, std::string(image.path) + ": the signature `" + signature +
                                           "` built ahead for `" + kernel +
                                           "` does not parse: " + error);
    std::vector<types::FunctionSignature>& list = state.aheadSignatures[kernel];
    if (std::ranges::find(list, *parsed) == list.end())
      list.push_back(*parsed);
    return parsed->params;
  };
  for (const aot::CpuKernel& k : image.cpu)
    state.aheadCpuParams.push_back(parse(k.kernel, k.signature));
  for (const aot::CudaKernel& k : image.cuda)
    state.aheadCudaParams.push_back(parse(k.kernel, k.signature));
  return m;
}

} // namespace pyk
