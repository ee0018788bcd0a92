// FakeCudaDriver: a stand-in libcuda for the tests of the runtime's CUDA backend on machines
// without an NVIDIA driver. It exports the entry points pyk resolves and reports two devices
// ("pyk fake H100" with compute capability 9.0, 132 multiprocessors and 80 GiB; "pyk fake A100",
// 8.0, 108, 40 GiB). Device and managed memory are host memory it tracks (copies check that they
// stay inside an allocation); a module is the image's text, whose `extern "C"` entry signatures
// tell the size of each kernel parameter; a launch runs nothing but records its function,
// configuration and parameter bytes, which the tests read through the pykFake* functions.
// With PYK_FAKE_CUDA_FAIL_INIT set, cuInit fails with CUDA_ERROR_NO_DEVICE; with
// PYK_FAKE_CUDA_FAIL=<entry point>, that entry point fails (cuMemAlloc_v2 with
// CUDA_ERROR_OUT_OF_MEMORY, cuModuleLoadData with CUDA_ERROR_INVALID_IMAGE, the others with
// CUDA_ERROR_LAUNCH_FAILED). With PYK_FAKE_CUDA_TWO_H100 set, device 1 is a second H100 (the
// same architecture as device 0). Device-to-device copies must stay on one device (the tests see
// that pyk copies between devices with cuMemcpyPeer, which checks each side's context); the two
// devices reach each other's memory (cuDeviceCanAccessPeer). A stream being captured
// (cuStreamBeginCapture_v2) turns its launches and async copies into the nodes of a graph, run in
// order by cuGraphLaunch; cuGraphExecKernelNodeSetParams changes a kernel node's parameters.
// A test library built with the tests, never installed. Over 600 lines: one shared object standing
// for one library, every entry point pyk resolves beside the bookkeeping they share.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

extern "C" {

using CUresult = int;
using CUdevice = int;
struct CUctx_st {
  int device;
};
using CUcontext = CUctx_st*;

namespace {
constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kNoDevice = 100;
constexpr CUresult kInvalidDevice = 101;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kNotFound = 500;
constexpr CUresult kLaunchFailed = 719;
constexpr CUresult kCaptureUnsupported = 900;
bool initialised = false;
CUctx_st contexts[2] = {{0}, {1}};
thread_local CUcontext current = nullptr; // per thread, as CUDA's current context

struct FakeDevice {
  const char* name;
  int major, minor, multiprocessors;
  std::size_t memory;
};
constexpr FakeDevice kDevices[2] = {{"pyk fake H100", 9, 0, 132, std::size_t{80} << 30},
                                    {"pyk fake A100", 8, 0, 108, std::size_t{40} << 30}};
constexpr FakeDevice kSecondH100 = {"pyk fake H100 (second)", 9, 0, 132, std::size_t{80} << 30};
const FakeDevice& deviceInfo(int device) {
  return device == 1 && std::getenv("PYK_FAKE_CUDA_TWO_H100") != nullptr ? kSecondH100
                                                                         : kDevices[device];
}
} // namespace

__attribute__((visibility("default"))) CUresult cuInit(unsigned) {
  if (std::getenv("PYK_FAKE_CUDA_FAIL_INIT") != nullptr)
    return kNoDevice;
  initialised = true;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGetCount(int* count) {
  if (!initialised)
    return kNotInitialized;
  *count = 2;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal < 0 || ordinal > 1)
    return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGetName(char* name, int length,
                                                                CUdevice device) {
  if (device < 0 || device > 1 || length <= 0)
    return kInvalidValue;
  std::strncpy(name, deviceInfo(device).name, static_cast<std::size_t>(length));
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDeviceGetAttribute(int* value, int attribute,
                                                                     CUdevice device) {
  if (device < 0 || device > 1)
    return kInvalidDevice;
  switch (attribute) {
  case 16:
    *value = deviceInfo(device).multiprocessors;
    return kSuccess;
  case 1:
    *value = 1024;
    return kSuccess;
  case 8:
    *value = 48 * 1024;
    return kSuccess;
  case 95:
    *value = 1;
    return kSuccess;
  case 97:
    *value = 227 * 1024;
    return kSuccess;
  case 75:
    *value = deviceInfo(device).major;
    return kSuccess;
  case 76:
    *value = deviceInfo(device).minor;
    return kSuccess;
  default:
    return kInvalidValue;
  }
}
__attribute__((visibility("default"))) CUresult cuDeviceTotalMem_v2(std::size_t* bytes,
                                                                    CUdevice device) {
  if (device < 0 || device > 1)
    return kInvalidDevice;
  *bytes = deviceInfo(device).memory;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDevicePrimaryCtxRetain(CUcontext* context,
                                                                         CUdevice device) {
  if (device < 0 || device > 1)
    return kInvalidDevice;
  *context = &contexts[device];
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  return device < 0 || device > 1 ? kInvalidDevice : kSuccess;
}
__attribute__((visibility("default"))) CUresult cuCtxSetCurrent(CUcontext context) {
  current = context;
  return kSuccess;
}
// Not part of the Driver API: which device's context is current (for the tests).
__attribute__((visibility("default"))) int pykFakeCurrentDevice() {
  return current != nullptr ? current->device : -1;
}
namespace {
struct FakeError {
  CUresult code;
  const char* name;
  const char* text;
};
constexpr FakeError kErrors[] = {
    {kNoDevice, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {kInvalidDevice, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {kNotInitialized, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {kInvalidValue, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {kOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {kInvalidImage, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {kNotFound, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {kLaunchFailed, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"}};
const FakeError* errorOf(CUresult result) {
  for (const FakeError& e : kErrors)
    if (e.code == result)
      return &e;
  return nullptr;
}
} // namespace

__attribute__((visibility("default"))) CUresult cuGetErrorName(CUresult result, const char** name) {
  const FakeError* e = errorOf(result);
  if (e == nullptr)
    return kInvalidValue;
  *name = e->name;
  return kSuccess;
}
__attribute__((visibility("default"))) CUresult cuGetErrorString(CUresult result,
                                                                 const char** text) {
  const FakeError* e = errorOf(result);
  if (e == nullptr)
    return kInvalidValue;
  *text = e->text;
  return kSuccess;
}

// ---- memory, streams, events, modules, launches ----------------------------------------------

using CUdeviceptr = unsigned long long;
struct CUgraph_st;
struct CUgraphNode_st;
struct CUstream_st {
  int id;
  CUgraph_st* capturing = nullptr;    // between cuStreamBeginCapture and cuStreamEndCapture
  CUgraphNode_st* lastNode = nullptr; // the node the capture added last
};
struct CUevent_st {
  bool recorded = false;
  std::chrono::steady_clock::time_point time{};
};
struct CUmod_st {
  std::string image;
};
struct CUfunc_st {
  std::string name;
  std::vector<std::size_t> paramSizes;
  int maxDynamicShared = 0;
};

// Graphs: a captured kernel launch or copy becomes a node, run when the graph is launched.
struct CUgraphNode_st {
  CUfunc_st* function = nullptr; // a kernel node; null for a copy
  unsigned grid[3]{}, block[3]{}, shared = 0;
  std::vector<std::vector<unsigned char>> params;
  std::function<CUresult()> copy; // a copy node
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};
struct CUgraphExec_st {
  std::vector<CUgraphNode_st> nodes;
  std::vector<const CUgraphNode_st*> sources; // the graph's node each came from
};

namespace {
std::mutex mutex;
struct Allocation {
  std::size_t bytes;
  int device;
  bool managed;
  bool host;
};
std::map<char*, Allocation>& allocations() {
  static auto* map = new std::map<char*, Allocation>;
  return *map;
}
int moduleLoads = 0;
int launches = 0;
struct LaunchRecord {
  std::string function;
  std::array<unsigned, 3> grid, block;
  unsigned shared;
  void* stream;
  bool cooperative;
  int device;
  std::vector<std::vector<unsigned char>> params; // the first paramCount are this launch's
  std::size_t paramCount = 0;
};
LaunchRecord lastLaunch;

bool failing(const char* call) {
  const char* f = std::getenv("PYK_FAKE_CUDA_FAIL");
  return f != nullptr && std::strcmp(f, call) == 0;
}

// The allocation holding [p, p + bytes), if any.
const Allocation* inside(const void* p, std::size_t bytes) {
  auto& m = allocations();
  auto it = m.upper_bound(static_cast<char*>(const_cast<void*>(p)));
  if (it == m.begin())
    return nullptr;
  --it;
  const char* c = static_cast<const char*>(p);
  if (c >= it->first && c + bytes <= it->first + it->second.bytes)
    return &it->second;
  return nullptr;
}

CUresult allocate(void** out, std::size_t bytes, bool managed, bool host) {
  if (bytes == 0)
    return kInvalidValue;
  char* p = static_cast<char*>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  std::lock_guard lock(mutex);
  allocations()[p] = {bytes, current != nullptr ? current->device : 0, managed, host};
  *out = p;
  return kSuccess;
}

CUresult release(void* p, bool host) {
  std::lock_guard lock(mutex);
  auto it = allocations().find(static_cast<char*>(p));
  if (it == allocations().end() || it->second.host != host)
    return kInvalidValue;
  allocations().erase(it);
  std::free(p);
  return kSuccess;
}

// The size of each parameter of `name`'s definition in the image: `extern "C" __global__ void
// name(pyk::Array<T, N, L> a, T b, ...)`.
std::vector<std::size_t> paramSizesOf(const std::string& image, const std::string& name) {
  const std::size_t at = image.find(" " + name + "(");
  std::vector<std::size_t> sizes;
  if (at == std::string::npos)
    return sizes;
  std::size_t i = at + name.size() + 2;
  int depth = 0;
  std::string param;
  auto finish = [&] {
    std::size_t first = param.find_first_not_of(' ');
    if (first == std::string::npos)
      return;
    param = param.substr(first);
    if (param.rfind("pyk::Array<", 0) == 0) {
      const std::size_t comma = param.find(", ");
      const int n = std::atoi(param.c_str() + comma + 2);
      sizes.push_back(8 + 16 * static_cast<std::size_t>(n));
    } else {
      static const std::pair<const char*, std::size_t> kScalars[] = {
          {"pyk::float32 ", 4},   {"pyk::float64 ", 8},    {"pyk::int8 ", 1},  {"pyk::int16 ", 2},
          {"pyk::int32 ", 4},     {"pyk::int64 ", 8},      {"pyk::uint8 ", 1}, {"pyk::uint16 ", 2},
          {"pyk::uint32 ", 4},    {"pyk::uint64 ", 8},     {"bool ", 1},       {"pyk::boolean ", 1},
          {"pyk::complex64 ", 8}, {"pyk::complex128 ", 16}};
      std::size_t size = 0;
      for (const auto& [type, bytes] : kScalars)
        if (param.rfind(type, 0) == 0)
          size = bytes;
      sizes.push_back(size); // 0: a type this fake does not know; the test sees it
    }
    param.clear();
  };
  for (; i < image.size(); ++i) {
    const char c = image[i];
    if (c == '<')
      ++depth;
    if (c == '>')
      --depth;
    if (c == ')' && depth == 0)
      break;
    if (c == ',' && depth == 0) {
      finish();
      continue;
    }
    param += c;
  }
  finish();
  return sizes;
}
} // namespace

#define PYK_FAKE extern "C" __attribute__((visibility("default")))

PYK_FAKE CUresult cuCtxGetCurrent(CUcontext* context) {
  *context = current;
  return kSuccess;
}
PYK_FAKE CUresult cuCtxSynchronize() {
  return failing("cuCtxSynchronize") ? kLaunchFailed : kSuccess;
}
PYK_FAKE CUresult cuMemAlloc_v2(CUdeviceptr* pointer, std::size_t bytes) {
  if (failing("cuMemAlloc_v2"))
    return kOutOfMemory;
  void* p = nullptr;
  const CUresult r = allocate(&p, bytes, false, false);
  *pointer = reinterpret_cast<CUdeviceptr>(p);
  return r;
}
PYK_FAKE CUresult cuMemAllocManaged(CUdeviceptr* pointer, std::size_t bytes, unsigned) {
  void* p = nullptr;
  const CUresult r = allocate(&p, bytes, true, false);
  *pointer = reinterpret_cast<CUdeviceptr>(p);
  return r;
}
PYK_FAKE CUresult cuMemAllocHost_v2(void** pointer, std::size_t bytes) {
  return allocate(pointer, bytes, false, true);
}
PYK_FAKE CUresult cuMemFree_v2(CUdeviceptr pointer) {
  return release(reinterpret_cast<void*>(pointer), false);
}
PYK_FAKE CUresult cuMemFreeHost(void* pointer) {
  return release(pointer, true);
}
namespace {
CUresult copy(void* to, const void* from, std::size_t bytes, bool toDevice, bool fromDevice) {
  std::lock_guard lock(mutex);
  const Allocation* t = inside(to, bytes);
  const Allocation* f = inside(from, bytes);
  if ((toDevice && (t == nullptr || t->host)) || (fromDevice && (f == nullptr || f->host)))
    return kInvalidValue;
  std::memmove(to, from, bytes);
  return kSuccess;
}
} // namespace
PYK_FAKE CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, std::size_t bytes) {
  return copy(reinterpret_cast<void*>(to), from, bytes, true, false);
}
PYK_FAKE CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, std::size_t bytes) {
  return copy(to, reinterpret_cast<void*>(from), bytes, false, true);
}
PYK_FAKE CUresult cuMemcpyDtoD_v2(CUdeviceptr to, CUdeviceptr from, std::size_t bytes) {
  {
    std::lock_guard lock(mutex);
    const Allocation* t = inside(reinterpret_cast<void*>(to), bytes);
    const Allocation* f = inside(reinterpret_cast<void*>(from), bytes);
    if (t != nullptr && f != nullptr && t->device != f->device)
      return kInvalidValue; // between devices: cuMemcpyPeer
  }
  return copy(reinterpret_cast<void*>(to), reinterpret_cast<void*>(from), bytes, true, true);
}
namespace {
int peerCopies = 0;
}
PYK_FAKE CUresult cuMemcpyPeer(CUdeviceptr to, CUcontext toContext, CUdeviceptr from,
                               CUcontext fromContext, std::size_t bytes) {
  {
    std::lock_guard lock(mutex);
    const Allocation* t = inside(reinterpret_cast<void*>(to), bytes);
    const Allocation* f = inside(reinterpret_cast<void*>(from), bytes);
    if (t == nullptr || f == nullptr || toContext == nullptr || fromContext == nullptr ||
        t->device != toContext->device || f->device != fromContext->device)
      return kInvalidValue;
    ++peerCopies;
  }
  return copy(reinterpret_cast<void*>(to), reinterpret_cast<void*>(from), bytes, true, true);
}
PYK_FAKE CUresult cuMemcpyPeerAsync(CUdeviceptr to, CUcontext toContext, CUdeviceptr from,
                                    CUcontext fromContext, std::size_t bytes, CUstream_st*) {
  return cuMemcpyPeer(to, toContext, from, fromContext, bytes);
}
PYK_FAKE CUresult cuDeviceCanAccessPeer(int* can, CUdevice device, CUdevice peer) {
  if (device < 0 || device > 1 || peer < 0 || peer > 1)
    return kInvalidDevice;
  *can = device != peer ? 1 : 0;
  return kSuccess;
}
// Not part of the Driver API: how many copies between devices there were (for the tests).
PYK_FAKE int pykFakePeerCopies() {
  return peerCopies;
}
namespace {
// On a stream being captured: `copy` becomes a node of its graph (true), not run.
bool captured(CUstream_st* stream, std::function<CUresult()> copy) {
  if (stream == nullptr || stream->capturing == nullptr)
    return false;
  std::lock_guard lock(mutex);
  auto node = std::make_unique<CUgraphNode_st>();
  node->copy = std::move(copy);
  stream->lastNode = node.get();
  stream->capturing->nodes.push_back(std::move(node));
  return true;
}
} // namespace
PYK_FAKE CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, std::size_t bytes,
                                       CUstream_st* stream) {
  if (captured(stream, [=] { return cuMemcpyHtoD_v2(to, from, bytes); }))
    return kSuccess;
  return cuMemcpyHtoD_v2(to, from, bytes);
}
PYK_FAKE CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, std::size_t bytes,
                                       CUstream_st* stream) {
  if (captured(stream, [=] { return cuMemcpyDtoH_v2(to, from, bytes); }))
    return kSuccess;
  return cuMemcpyDtoH_v2(to, from, bytes);
}
PYK_FAKE CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr to, CUdeviceptr from, std::size_t bytes,
                                       CUstream_st* stream) {
  if (captured(stream, [=] { return cuMemcpyDtoD_v2(to, from, bytes); }))
    return kSuccess;
  return cuMemcpyDtoD_v2(to, from, bytes);
}
PYK_FAKE CUresult cuPointerGetAttribute(void* value, int attribute, CUdeviceptr pointer) {
  std::lock_guard lock(mutex);
  const Allocation* a = inside(reinterpret_cast<void*>(pointer), 1);
  if (a == nullptr)
    return kInvalidValue;
  switch (attribute) {
  case 2: // memory type: host 1, device 2
    *static_cast<unsigned*>(value) = a->host ? 1 : 2;
    return kSuccess;
  case 8:
    *static_cast<int*>(value) = a->managed ? 1 : 0;
    return kSuccess;
  case 9:
    *static_cast<int*>(value) = a->device;
    return kSuccess;
  default:
    return kInvalidValue;
  }
}
PYK_FAKE CUresult cuStreamCreate(CUstream_st** stream, unsigned) {
  static int next = 1;
  *stream = new CUstream_st{next++};
  return kSuccess;
}
PYK_FAKE CUresult cuStreamDestroy_v2(CUstream_st* stream) {
  delete stream;
  return kSuccess;
}
PYK_FAKE CUresult cuStreamSynchronize(CUstream_st* stream) {
  if (stream != nullptr && stream->capturing != nullptr)
    return kCaptureUnsupported;
  return failing("cuStreamSynchronize") ? kLaunchFailed : kSuccess;
}
PYK_FAKE CUresult cuStreamQuery(CUstream_st*) {
  return kSuccess;
}
PYK_FAKE CUresult cuStreamWaitEvent(CUstream_st*, CUevent_st*, unsigned) {
  return kSuccess;
}
PYK_FAKE CUresult cuEventCreate(CUevent_st** event, unsigned) {
  *event = new CUevent_st;
  return kSuccess;
}
PYK_FAKE CUresult cuEventDestroy_v2(CUevent_st* event) {
  delete event;
  return kSuccess;
}
PYK_FAKE CUresult cuEventRecord(CUevent_st* event, CUstream_st*) {
  event->recorded = true;
  event->time = std::chrono::steady_clock::now();
  return kSuccess;
}
PYK_FAKE CUresult cuEventSynchronize(CUevent_st*) {
  return kSuccess;
}
PYK_FAKE CUresult cuEventQuery(CUevent_st*) {
  return kSuccess;
}
PYK_FAKE CUresult cuEventElapsedTime_v2(float* ms, CUevent_st* start, CUevent_st* end) {
  if (!start->recorded || !end->recorded)
    return kInvalidValue;
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return kSuccess;
}
PYK_FAKE CUresult cuModuleLoadData(CUmod_st** module, const void* image) {
  if (failing("cuModuleLoadData"))
    return kInvalidImage;
  std::lock_guard lock(mutex);
  ++moduleLoads;
  const char* bytes = static_cast<const char*>(image);
  if (std::memcmp(bytes, "\x50\xed\x55\xba", 4) == 0) {
    // A fatbin (pykc build's): the first CUBIN in it (its header: magic, version, header size,
    // then the size of what follows).
    std::uint16_t headerSize = 0;
    std::uint64_t bodySize = 0;
    std::memcpy(&headerSize, bytes + 6, 2);
    std::memcpy(&bodySize, bytes + 8, 8);
    const std::string fatbin(bytes, headerSize + bodySize);
    const std::size_t elf = fatbin.find("\x7f"
                                        "ELF");
    if (elf == std::string::npos)
      return kInvalidImage;
    bytes += elf;
  }
  if (std::memcmp(bytes,
                  "\x7f"
                  "ELF",
                  4) == 0) {
    // A real CUBIN (NVRTC's): its size from the ELF64 header (the section headers come last).
    std::uint64_t sectionTable = 0;
    std::uint16_t entrySize = 0, entries = 0;
    std::memcpy(&sectionTable, bytes + 0x28, 8);
    std::memcpy(&entrySize, bytes + 0x3a, 2);
    std::memcpy(&entries, bytes + 0x3c, 2);
    *module = new CUmod_st{std::string(bytes, sectionTable + std::uint64_t{entrySize} * entries)};
    return kSuccess;
  }
  *module = new CUmod_st{bytes};
  return kSuccess;
}
PYK_FAKE CUresult cuModuleUnload(CUmod_st* module) {
  delete module;
  return kSuccess;
}
PYK_FAKE CUresult cuModuleGetFunction(CUfunc_st** function, CUmod_st* module, const char* name) {
  // A text image names the function in its definition; a CUBIN in its string table.
  if (module->image.find(std::string(" ") + name + "(") == std::string::npos &&
      module->image.find(std::string(name) + '\0') == std::string::npos)
    return kNotFound;
  // Kept for the process (a test may still hold a function of an unloaded module), reachable
  // so that LeakSanitizer does not count it.
  static std::mutex functionsMutex;
  static std::vector<std::unique_ptr<CUfunc_st>>* functions =
      new std::vector<std::unique_ptr<CUfunc_st>>();
  std::lock_guard lock(functionsMutex);
  functions->push_back(
      std::make_unique<CUfunc_st>(CUfunc_st{name, paramSizesOf(module->image, name), 0}));
  *function = functions->back().get();
  return kSuccess;
}
PYK_FAKE CUresult cuFuncGetAttribute(int* value, int attribute, CUfunc_st*) {
  switch (attribute) {
  case 0: // max threads per block
    *value = 1024;
    return kSuccess;
  case 1: // static shared bytes
    *value = 0;
    return kSuccess;
  default:
    return kInvalidValue;
  }
}
PYK_FAKE CUresult cuFuncSetAttribute(CUfunc_st* function, int attribute, int value) {
  if (attribute != 8 || value > 227 * 1024)
    return kInvalidValue;
  function->maxDynamicShared = value;
  return kSuccess;
}
namespace {
// `f`'s parameters, each `f->paramSizes[i]` bytes at params[i], into `out` (kept storage reused).
void copyParameters(const CUfunc_st* f, void* const* params,
                    std::vector<std::vector<unsigned char>>& out) {
  if (out.size() < f->paramSizes.size())
    out.resize(f->paramSizes.size());
  for (std::size_t i = 0; i < f->paramSizes.size(); ++i) {
    const auto* p = static_cast<const unsigned char*>(params[i]);
    out[i].assign(p, p + f->paramSizes[i]);
  }
}

CUresult launch(CUfunc_st* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                unsigned bz, unsigned shared, CUstream_st* stream, void** params,
                bool cooperative) {
  if (shared > 48 * 1024 && static_cast<int>(shared) > f->maxDynamicShared)
    return kInvalidValue;
  std::lock_guard lock(mutex);
  if (stream != nullptr && stream->capturing != nullptr) { // a node of the captured graph
    auto node = std::make_unique<CUgraphNode_st>();
    node->function = f;
    node->grid[0] = gx, node->grid[1] = gy, node->grid[2] = gz;
    node->block[0] = bx, node->block[1] = by, node->block[2] = bz;
    node->shared = shared;
    copyParameters(f, params, node->params);
    stream->lastNode = node.get();
    stream->capturing->nodes.push_back(std::move(node));
    return kSuccess;
  }
  ++launches;
  // Recorded into the storage of the launch before (no allocation once it is large enough), so
  // that a raw cuLaunchKernel costs little beside the caller's work (bench/gpu/launch_arguments).
  LaunchRecord& r = lastLaunch;
  r.function = f->name;
  r.grid = {gx, gy, gz};
  r.block = {bx, by, bz};
  r.shared = shared;
  r.stream = stream;
  r.cooperative = cooperative;
  r.device = current != nullptr ? current->device : -1;
  copyParameters(f, params, r.params);
  r.paramCount = f->paramSizes.size();
  return kSuccess;
}
} // namespace
PYK_FAKE CUresult cuLaunchKernel(CUfunc_st* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned shared, CUstream_st* stream,
                                 void** params, void**) {
  if (failing("cuLaunchKernel"))
    return kLaunchFailed;
  return launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, false);
}
PYK_FAKE CUresult cuLaunchCooperativeKernel(CUfunc_st* f, unsigned gx, unsigned gy, unsigned gz,
                                            unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                            CUstream_st* stream, void** params) {
  return launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, true);
}
PYK_FAKE CUresult cuStreamBeginCapture_v2(CUstream_st* stream, int) {
  if (stream == nullptr || stream->capturing != nullptr) // CUDA captures no legacy stream
    return kCaptureUnsupported;
  stream->capturing = new CUgraph_st;
  stream->lastNode = nullptr;
  return kSuccess;
}
PYK_FAKE CUresult cuStreamEndCapture(CUstream_st* stream, CUgraph_st** graph) {
  if (stream == nullptr || stream->capturing == nullptr)
    return kInvalidValue;
  *graph = stream->capturing;
  stream->capturing = nullptr;
  return kSuccess;
}
PYK_FAKE CUresult cuStreamGetCaptureInfo_v2(CUstream_st* stream, int* status,
                                            unsigned long long* id, CUgraph_st** graph,
                                            CUgraphNode_st* const** dependencies,
                                            std::size_t* count) {
  const bool active = stream != nullptr && stream->capturing != nullptr;
  *status = active ? 1 : 0;
  if (id != nullptr)
    *id = active ? static_cast<unsigned long long>(stream->id) : 0;
  if (graph != nullptr)
    *graph = active ? stream->capturing : nullptr;
  if (dependencies != nullptr)
    *dependencies = active && stream->lastNode != nullptr ? &stream->lastNode : nullptr;
  if (count != nullptr)
    *count = active && stream->lastNode != nullptr ? 1 : 0;
  return kSuccess;
}
PYK_FAKE CUresult cuGraphInstantiateWithFlags(CUgraphExec_st** exec, CUgraph_st* graph,
                                              unsigned long long) {
  auto* e = new CUgraphExec_st;
  for (const auto& node : graph->nodes) {
    e->nodes.push_back(*node);
    e->sources.push_back(node.get());
  }
  *exec = e;
  return kSuccess;
}
PYK_FAKE CUresult cuGraphLaunch(CUgraphExec_st* exec, CUstream_st* stream) {
  for (CUgraphNode_st& node : exec->nodes) {
    CUresult r = kSuccess;
    if (node.function == nullptr) {
      r = node.copy();
    } else {
      std::vector<void*> pointers;
      for (std::vector<unsigned char>& p : node.params)
        pointers.push_back(p.data());
      r = launch(node.function, node.grid[0], node.grid[1], node.grid[2], node.block[0],
                 node.block[1], node.block[2], node.shared, stream, pointers.data(), false);
    }
    if (r != kSuccess)
      return r;
  }
  return kSuccess;
}
struct KernelNodeParams {
  CUfunc_st* function;
  unsigned grid[3], block[3], shared;
  void** params;
  void** extra;
};
PYK_FAKE CUresult cuGraphExecKernelNodeSetParams(CUgraphExec_st* exec, CUgraphNode_st* node,
                                                 const KernelNodeParams* params) {
  for (std::size_t i = 0; i < exec->nodes.size(); ++i) {
    if (exec->sources[i] != node)
      continue;
    CUgraphNode_st& n = exec->nodes[i];
    if (n.function == nullptr || params->function != n.function)
      return kInvalidValue; // a kernel node keeps its function
    for (int a = 0; a < 3; ++a) {
      n.grid[a] = params->grid[a];
      n.block[a] = params->block[a];
    }
    n.shared = params->shared;
    copyParameters(n.function, params->params, n.params);
    return kSuccess;
  }
  return kInvalidValue;
}
PYK_FAKE CUresult cuGraphExecDestroy(CUgraphExec_st* exec) {
  delete exec;
  return kSuccess;
}
PYK_FAKE CUresult cuGraphDestroy(CUgraph_st* graph) {
  delete graph;
  return kSuccess;
}
PYK_FAKE CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunc_st*,
                                                              int blockSize, std::size_t) {
  *blocks = blockSize > 0 ? 2048 / blockSize : 0;
  return kSuccess;
}

// ---- what the tests read ----------------------------------------------------------------------
PYK_FAKE int pykFakeModuleLoads() {
  std::lock_guard lock(mutex);
  return moduleLoads;
}
PYK_FAKE int pykFakeLaunches() {
  std::lock_guard lock(mutex);
  return launches;
}
PYK_FAKE std::size_t pykFakeLiveAllocations() {
  std::lock_guard lock(mutex);
  return allocations().size();
}
// The last launch: its function's name, grid and block (x, y, z each), dynamic shared bytes,
// stream, whether cooperative, the device whose context was current.
PYK_FAKE const char* pykFakeLastFunction() {
  return lastLaunch.function.c_str();
}
PYK_FAKE void pykFakeLastConfiguration(unsigned* grid, unsigned* block, unsigned* shared,
                                       void** stream, int* cooperative, int* device) {
  for (int i = 0; i < 3; ++i) {
    grid[i] = lastLaunch.grid[i];
    block[i] = lastLaunch.block[i];
  }
  *shared = lastLaunch.shared;
  *stream = lastLaunch.stream;
  *cooperative = lastLaunch.cooperative ? 1 : 0;
  *device = lastLaunch.device;
}
// Parameter i of the last launch: its bytes (null past the last), and their count.
PYK_FAKE const unsigned char* pykFakeLastParameter(int i, std::size_t* bytes) {
  if (i < 0 || static_cast<std::size_t>(i) >= lastLaunch.paramCount)
    return nullptr;
  *bytes = lastLaunch.params[static_cast<std::size_t>(i)].size();
  return lastLaunch.params[static_cast<std::size_t>(i)].data();
}

} // extern "C"
