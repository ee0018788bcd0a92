// CudaCompiler: NVRTC through the disk cache (key: the unit, the support header, the target, the
// options, NVRTC's and pyk's versions), then cuModuleLoadData. An entry the driver will not load
// is compiled afresh once and replaced.
#include "cuda/CudaCompiler.h"

#include <algorithm>
#include <optional>

#include "cache/DiskCache.h"
#include "driver/NvrtcCompiler.h"
#include "driver/SupportHeaderText.h"
#include "pyk/error.hpp"
#include "pyk/version.hpp"

namespace pyk::cuda {

namespace {

// The cache entry's format: a tag line, then the image.
constexpr std::string_view kCubinTag = "cubin\n";
constexpr std::string_view kPtxTag = "ptx\n";

// What NVRTC produces for compute capability `cc` (90 for 9.0): {cubin?, arch number}.
std::pair<bool, int> targetOf(int cc) {
  const std::vector<int> known = driver::nvrtcSupportedArchs();
  if (known.empty() || std::find(known.begin(), known.end(), cc) != known.end())
    return {true, cc};
  int best = 0;
  for (int a : known)
    if (a <= cc)
      best = a;
  return {false, best};
}

std::string describeTarget(std::pair<bool, int> t) {
  return t.first ? "cubin sm_" + std::to_string(t.second)
                 : "ptx compute_" + std::to_string(t.second);
}

std::string compileImage(const std::string& source, const std::string& name,
                         std::pair<bool, int> target, const std::vector<std::string>& options) {
  std::string whyNot;
  if (!driver::haveNvrtc(&whyNot))
    throw Error(ErrorKind::Compile, name + ": cannot compile for CUDA: " + whyNot);
  if (target.second == 0)
    throw Error(ErrorKind::Compile,
                name + ": NVRTC " + driver::nvrtcVersion() +
                    " knows no architecture this device can run (it is older than all of them)");
  const driver::NvrtcOutput out = driver::compileWithNvrtc(
      source, name + ".cu", std::to_string(target.second), target.first, options,
      {{std::string(driver::kSupportHeaderName), std::string(driver::supportHeaderText())}});
  if (!out.ok)
    throw Error(ErrorKind::Internal, "NVRTC rejected the CUDA C++ pyk generated for " + name +
                                         " (a bug in pyk):\n" + out.log);
  return std::string(target.first ? kCubinTag : kPtxTag) + (target.first ? out.cubin : out.ptx);
}

const std::string& supportHeaderKey() {
  static const std::string* text = new std::string(driver::supportHeaderText());
  return *text;
}

} // namespace

std::string targetFor(int major, int minor) {
  return describeTarget(targetOf(major * 10 + minor));
}

LoadedModule compileAndLoad(const DeviceContext& device, const std::string& source,
                            const std::string& entry, const std::string& name, bool fastMath) {
  const std::pair<bool, int> target =
      targetOf(device.computeCapabilityMajor * 10 + device.computeCapabilityMinor);
  std::vector<std::string> options;
  if (fastMath)
    options.push_back("--use_fast_math");
  std::vector<std::string> parts = {"pyk-cuda-module",
                                    std::to_string(kVersion.major) + "." +
                                        std::to_string(kVersion.minor) + "." +
                                        std::to_string(kVersion.patch),
                                    driver::nvrtcVersion(),
                                    describeTarget(target),
                                    supportHeaderKey(),
                                    source};
  parts.insert(parts.end(), options.begin(), options.end());
  const cache::CacheKey key = cache::CacheKey::of(parts);
  std::optional<cache::DiskCache> disk;
  std::optional<std::string> image;
  try {
    disk.emplace();
    image = disk->lookup(key);
  } catch (const Error&) {
    disk.reset(); // no usable cache: compile every time
  }
  LoadedModule loaded;
  loaded.target = describeTarget(target);
  loaded.fromCache = image.has_value();
  const CudaDriver& driver = *CudaDriver::shared();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!image) {
      image = compileImage(source, name, target, options);
      if (disk) {
        try {
          disk->store(key, *image);
        } catch (const Error&) {
          // a full disk or a read-only folder costs a recompile next time, nothing else
        }
      }
    }
    const bool isCubin = image->rfind(kCubinTag, 0) == 0;
    const bool isPtx = image->rfind(kPtxTag, 0) == 0;
    const char* bytes = image->c_str() + (isCubin ? kCubinTag.size() : kPtxTag.size());
    CUresult r = isCubin || isPtx ? driver.cuModuleLoadData(&loaded.module, bytes) : -1;
    if (r == kCudaSuccess)
      break;
    if (!loaded.fromCache || attempt == 1)
      driver.check(r, "cuModuleLoadData", name + " (" + loaded.target + ")");
    // A cached image the driver refuses (or a foreign entry): compile afresh once.
    image.reset();
    loaded.fromCache = false;
  }
  driver.check(driver.cuModuleGetFunction(&loaded.function, loaded.module, entry.c_str()),
               "cuModuleGetFunction", name + " (entry `" + entry + "`)");
  return loaded;
}

} // namespace pyk::cuda
