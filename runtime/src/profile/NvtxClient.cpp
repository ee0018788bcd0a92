// NvtxClient: pyk as an NVTX v3 client, the side of the protocol the toolkit's nvToolsExt.h
// implements for a program (NVTX's nvtxDetail/nvtxInit.h and nvtxImpl.h). At the first range a
// profiler's injection library is found (NVTX_INJECTION64_PATH, which Nsight Systems and Nsight
// Compute set, or InitializeInjectionNvtx2_fnptr in a program that links one in) and its
// InitializeInjectionNvtx2 is given the client's export tables; through them it asks for each
// module's function table (the addresses of the client's function slots, slot 0 unused, a null
// past the last) and writes its functions into the slots. pyk then opens its ranges in a `pyk`
// domain with categories `compile` and `launch`. The numbers below are the protocol's (its ABI):
// module and slot ids, export table ids, the event attributes' layout.
#include "profile/NvtxRanges.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "settings/SettingsStore.h"

using NvtxGetExportTable = const void* (*)(std::uint32_t exportTableId);
using NvtxInitializeInjection = int (*)(NvtxGetExportTable getExportTable);

// A tool linked into the program defines this (NVTX's static injection).
extern "C" __attribute__((weak)) NvtxInitializeInjection InitializeInjectionNvtx2_fnptr;

namespace pyk::detail {

namespace {

using FunctionSlot = void (*)();

constexpr std::uint32_t kNvtxVersion = 3;
constexpr std::uint32_t kExportTableCallbacks = 1;
constexpr std::uint32_t kExportTableVersionInfo = 3;

// The modules (NvtxCallbackModule) and each one's slot count (its ids' _SIZE; slot 0 unused). A
// tool may write every slot of a module it asks for, so each has storage.
constexpr int kModuleCount = 7; // invalid, core, cuda, opencl, cudart, core2, sync
constexpr unsigned kSlotCount[kModuleCount] = {0, 16, 9, 15, 7, 16, 7};
constexpr unsigned kMostSlots = 16;
constexpr int kModuleCore = 1;
constexpr int kModuleCore2 = 5;
constexpr unsigned kCoreRangePushEx = 8;
constexpr unsigned kCoreRangePop = 11;
constexpr unsigned kCore2DomainRangePushEx = 4;
constexpr unsigned kCore2DomainRangePop = 5;
constexpr unsigned kCore2DomainNameCategoryA = 8;
constexpr unsigned kCore2DomainCreateA = 12;

// nvtxEventAttributes_v2.
struct EventAttributes {
  std::uint16_t version;
  std::uint16_t size;
  std::uint32_t category;
  std::int32_t colorType; // 1: ARGB
  std::uint32_t color;
  std::int32_t payloadType; // 0: none
  std::int32_t reserved0;
  std::uint64_t payload;
  std::int32_t messageType; // 1: ASCII
  const char* message;
};
static_assert(sizeof(EventAttributes) == 48 || sizeof(void*) != 8);

// NvtxExportTableCallbacks and NvtxExportTableVersionInfo.
struct CallbacksTable {
  std::size_t structSize;
  int (*getModuleFunctionTable)(int module, FunctionSlot*** table, unsigned* size);
};
struct VersionTable {
  std::size_t structSize;
  std::uint32_t version;
  std::uint32_t reserved0;
  void (*setInjectionVersion)(std::uint32_t version);
};

using DomainCreate = void* (*)(const char* name);
using DomainNameCategory = void (*)(void* domain, std::uint32_t category, const char* name);
using DomainRangePush = int (*)(void* domain, const EventAttributes* attributes);
using DomainRangePop = int (*)(void* domain);
using RangePush = int (*)(const EventAttributes* attributes);
using RangePop = int (*)();

int getModuleFunctionTable(int module, FunctionSlot*** table, unsigned* size);
void setInjectionVersion(std::uint32_t) {}

struct Client {
  FunctionSlot slots[kModuleCount][kMostSlots] = {};
  FunctionSlot* tables[kModuleCount][kMostSlots + 1] = {};
  CallbacksTable callbacks{sizeof(CallbacksTable), &getModuleFunctionTable};
  VersionTable version{sizeof(VersionTable), kNvtxVersion, 0, &setInjectionVersion};
  std::once_flag attachOnce;
  // Set once attached: the domain's functions, else the core ones, else none (no profiler).
  void* domain = nullptr;
  DomainRangePush domainPush = nullptr;
  DomainRangePop domainPop = nullptr;
  RangePush corePush = nullptr;
  RangePop corePop = nullptr;

  Client() {
    for (int m = 1; m < kModuleCount; ++m)
      for (unsigned s = 1; s < kSlotCount[m]; ++s)
        tables[m][s] = &slots[m][s];
  }
  template <typename F>
  F slot(int module, unsigned id) const {
    return reinterpret_cast<F>(slots[module][id]);
  }
};

// Never destroyed: a range may close after main() returns.
Client& client() {
  static Client* c = new Client;
  return *c;
}

int getModuleFunctionTable(int module, FunctionSlot*** table, unsigned* size) {
  if (module <= 0 || module >= kModuleCount)
    return 0;
  if (size != nullptr)
    *size = kSlotCount[module];
  if (table != nullptr)
    *table = client().tables[module];
  return 1;
}

const void* getExportTable(std::uint32_t id) {
  switch (id) {
  case kExportTableCallbacks:
    return &client().callbacks;
  case kExportTableVersionInfo:
    return &client().version;
  default:
    return nullptr;
  }
}

void say(const std::string& line) {
  std::fprintf(stderr, "pyk: %s\n", line.c_str());
}

// The profiler's injection library, given the export tables; a library that cannot be used is
// said on stderr once (PYK_NVTX=1 asked for ranges) and the ranges are skipped.
void attach(Client& c) {
  NvtxInitializeInjection initialize = nullptr;
  void* library = nullptr;
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  if (path != nullptr && *path != '\0') {
    library = ::dlopen(path, RTLD_LAZY);
    if (library == nullptr) {
      const char* why = ::dlerror();
      say(std::string("PYK_NVTX=1, but NVTX_INJECTION64_PATH names a library that cannot be "
                      "loaded; no NVTX ranges: ") +
          (why != nullptr ? why : path));
      return;
    }
    initialize =
        reinterpret_cast<NvtxInitializeInjection>(::dlsym(library, "InitializeInjectionNvtx2"));
    if (initialize == nullptr) {
      say(std::string("PYK_NVTX=1, but NVTX_INJECTION64_PATH's library (") + path +
          ") has no InitializeInjectionNvtx2; no NVTX ranges");
      ::dlclose(library);
      return;
    }
  } else if (&InitializeInjectionNvtx2_fnptr != nullptr && InitializeInjectionNvtx2_fnptr) {
    initialize = InitializeInjectionNvtx2_fnptr;
  }
  if (initialize == nullptr)
    return; // no profiler attached
  if (initialize(&getExportTable) == 0) {
    say("PYK_NVTX=1, but the profiler's NVTX injection library refused to start; no NVTX ranges");
    for (auto& module : c.slots)
      for (FunctionSlot& s : module)
        s = nullptr;
    if (library != nullptr)
      ::dlclose(library);
    return;
  }
  const auto create = c.slot<DomainCreate>(kModuleCore2, kCore2DomainCreateA);
  c.domainPush = c.slot<DomainRangePush>(kModuleCore2, kCore2DomainRangePushEx);
  c.domainPop = c.slot<DomainRangePop>(kModuleCore2, kCore2DomainRangePop);
  if (create != nullptr && c.domainPush != nullptr && c.domainPop != nullptr)
    c.domain = create("pyk");
  if (c.domain != nullptr) {
    if (const auto name = c.slot<DomainNameCategory>(kModuleCore2, kCore2DomainNameCategoryA)) {
      name(c.domain, 1 + static_cast<std::uint32_t>(NvtxRangeKind::Compile), "compile");
      name(c.domain, 1 + static_cast<std::uint32_t>(NvtxRangeKind::Launch), "launch");
    }
    return;
  }
  c.domainPush = nullptr;
  c.domainPop = nullptr;
  c.corePush = c.slot<RangePush>(kModuleCore, kCoreRangePushEx);
  c.corePop = c.slot<RangePop>(kModuleCore, kCoreRangePop);
  if (c.corePush == nullptr || c.corePop == nullptr)
    c.corePush = nullptr, c.corePop = nullptr;
}

Client& attachedClient() {
  Client& c = client();
  std::call_once(c.attachOnce, [&] { attach(c); });
  return c;
}

} // namespace

bool nvtxRangesOn() noexcept {
  // The settings' generation and PYK_NVTX, in one word: generation << 1 | on.
  static std::atomic<std::uint64_t> cached{0};
  const std::uint64_t generation = settingsGeneration();
  std::uint64_t seen = cached.load(std::memory_order_relaxed);
  if (seen >> 1 != generation) {
    bool on = false;
    try {
      on = currentSettings()->nvtx_ranges;
    } catch (...) { // a malformed setting fails the launch itself, with its message
    }
    seen = generation << 1 | (on ? 1 : 0);
    cached.store(seen, std::memory_order_relaxed);
  }
  return (seen & 1) != 0;
}

bool NvtxRange::profilerAttached() noexcept {
  const Client& c = attachedClient();
  return c.domainPush != nullptr || c.corePush != nullptr;
}

void NvtxRange::push(NvtxRangeKind kind, const std::string& message) noexcept {
  const Client& c = client(); // attached: profilerAttached() said so
  EventAttributes attributes{};
  attributes.version = kNvtxVersion;
  attributes.size = sizeof(EventAttributes);
  attributes.category = 1 + static_cast<std::uint32_t>(kind);
  attributes.colorType = 1;
  attributes.color = kind == NvtxRangeKind::Compile ? 0xFF76B900u : 0xFF2F6FBFu;
  attributes.messageType = 1;
  attributes.message = message.c_str();
  if (c.domainPush != nullptr)
    c.domainPush(c.domain, &attributes);
  else
    c.corePush(&attributes);
}

void NvtxRange::pop() noexcept {
  const Client& c = client(); // attached: a range was pushed
  if (c.domainPop != nullptr)
    c.domainPop(c.domain);
  else if (c.corePop != nullptr)
    c.corePop();
}

} // namespace pyk::detail
