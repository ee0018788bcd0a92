// CudaImageCompile: NVRTC through the disk cache; a cache entry is a tag line ("cubin" or "ptx")
// then the image, and an entry without a known tag is compiled afresh.
#include "jit/CudaImageCompile.h"

#include "jit/CompileFlags.h"

#include <sstream>
#include <string_view>
#include <vector>

#include "base/Version.h"
#include "jit/ArtifactCache.h"
#include "jit/NvJitLinker.h"
#include "jit/NvrtcCompiler.h"
#include "jit/SupportHeaders.h"

namespace pyk::jit {

namespace {

constexpr std::string_view kCubinTag = "cubin\n";
constexpr std::string_view kPtxTag = "ptx\n";

// The image in a cache entry, without its tag; std::nullopt for an entry of another format.
std::optional<std::string> untagged(const std::string& entry) {
  for (std::string_view tag : {kCubinTag, kPtxTag})
    if (entry.rfind(tag, 0) == 0)
      return entry.substr(tag.size());
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> supportHeader() {
  return {{std::string(kCudaSupportHeaderName), std::string(cudaSupportHeaderText())}};
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

} // namespace

CudaImage compileCudaImage(const JitSettings& settings, const std::string& source,
                           const std::string& name, const CudaTarget& target,
                           const std::vector<std::string>& flags,
                           const std::vector<types::LinkedSource>& linked, bool relocatable,
                           bool rebuild, const std::function<std::string()>& sourceWithoutLines,
                           const std::string& label) {
  std::string whyNot;
  const Nvrtc* nvrtc = Nvrtc::load(settings.nvrtcLibrary, &whyNot);
  const std::string version = nvrtcVersion(nvrtc);
  // #550-D "variable was set but never used": a Python variable the kernel writes and never
  // reads is the user's program, which numba compiles without a word; any other warning about
  // generated code is a bug in pyk (pykc emit reports it, tests/nvrtc fails on it).
  std::vector<std::string> options = {"--diag-suppress=550"};
  options.insert(options.end(), flags.begin(), flags.end());
  if (target.index32)
    options.push_back("-DPYK_INDEX32=1");
  // Linked GPU code: the unit relocatable, its extern functions left for nvJitLink to resolve. A
  // device function compiled alone (numba's compile_ptx(device=True)) too: whole-program
  // compilation would drop it, no kernel calling it.
  if (!linked.empty() || relocatable)
    options.push_back("-rdc=true");
  std::string linkerWhyNot;
  const NvJitLinker* linker = !linked.empty() && target.cubin
                                  ? NvJitLinker::load(settings.nvJitLinkLibrary, &linkerWhyNot)
                                  : nullptr;
  const std::string linkedNames = types::describe(linked);
  std::vector<std::string> parts = {"pyk-cuda-module",
                                    std::to_string(kVersion.major) + "." +
                                        std::to_string(kVersion.minor) + "." +
                                        std::to_string(kVersion.patch),
                                    version,
                                    target.describe(),
                                    cudaSupportHeaderDigest(),
                                    source};
  parts.insert(parts.end(), options.begin(), options.end());
  if (linker != nullptr)
    parts.push_back("nvJitLink " + linker->version());
  for (const types::LinkedSource& code : linked) {
    parts.push_back(code.path + "\t" + types::describe(code.kind));
    parts.push_back(code.text);
  }
  const CacheKey key = CacheKey::of(parts);

  CudaImage image;
  auto build = [&]() -> std::optional<std::string> {
    if (nvrtc == nullptr) {
      image.failure = NvrtcFailure{NvrtcFailure::Kind::Unavailable, version, whyNot, ""};
      return std::nullopt;
    }
    if (!linked.empty() && target.cubin && linker == nullptr) {
      image.failure =
          NvrtcFailure{NvrtcFailure::Kind::Unavailable, version,
                       "linking " + linkedNames + " needs nvJitLink: " + linkerWhyNot, ""};
      return std::nullopt;
    }
    const NvrtcOutput out = nvrtc->compile(source, name, target, options, supportHeader());
    if (out.ok && linker != nullptr) {
      image.warnings = out.log;
      const NvJitLinkOutput linkedImage = linker->link(out.cubin, target.arch, linked);
      if (!linkedImage.ok) {
        image.failure =
            NvrtcFailure{NvrtcFailure::Kind::LinkRejected, version, linkedImage.log, linkedNames};
        return std::nullopt;
      }
      return std::string(kCubinTag) + linkedImage.cubin;
    }
    if (out.ok) {
      image.warnings = out.log;
      return std::string(target.cubin ? kCubinTag : kPtxTag) + (target.cubin ? out.cubin : out.ptx);
    }
    if (out.log.find("--gpu-architecture") != std::string::npos) {
      image.failure = NvrtcFailure{NvrtcFailure::Kind::UnsupportedArch, version, out.log, ""};
      return std::nullopt;
    }
    if (const std::string linked = linkedSourceInError(source, out.log); !linked.empty()) {
      image.failure =
          NvrtcFailure{NvrtcFailure::Kind::LinkedSourceRejected, version, out.log, linked};
      return std::nullopt;
    }
    const std::string plain = sourceWithoutLines();
    const NvrtcOutput again = nvrtc->compile(plain, "generated.cu", CudaTarget{target.arch, false},
                                             options, supportHeader());
    image.failure = NvrtcFailure{NvrtcFailure::Kind::Rejected, version, out.log,
                                 describeGeneratedLines(again.log, plain)};
    return std::nullopt;
  };
  std::optional<CachedArtifact> entry = cachedArtifact(settings, key, rebuild, build, label);
  if (entry && entry->fromCache && !untagged(entry->bytes))
    entry = cachedArtifact(settings, key, true, build, label); // an entry of another format
  if (!entry)
    return image;
  image.bytes = *untagged(entry->bytes);
  image.fromCache = entry->fromCache;
  return image;
}

} // namespace pyk::jit
