// FakeNvtxInjection: a stand-in for a profiler's NVTX injection library (what Nsight Systems
// names in NVTX_INJECTION64_PATH), for the NVTX scenarios (tests/unit/runtime/nvtx). It speaks
// the injection side of NVTX v3's protocol as a profiler does: checks the client's version table,
// asks for the core and core2 modules' function tables, writes a function into every slot of
// them, and records what the client calls, in order, with the thread's range depth checked.
// Its own functions (pykFakeNvtx...) read the record. PYK_FAKE_NVTX_REFUSE=1: its entry point
// refuses (returns 0).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

using FunctionSlot = void (*)();
using GetExportTable = const void* (*)(std::uint32_t);

struct Callbacks {
  std::size_t structSize;
  int (*getModuleFunctionTable)(int module, FunctionSlot*** table, unsigned* size);
};
struct Version {
  std::size_t structSize;
  std::uint32_t version;
  std::uint32_t reserved0;
  void (*setInjectionVersion)(std::uint32_t);
};
struct Attributes { // nvtxEventAttributes_v2
  std::uint16_t version, size;
  std::uint32_t category;
  std::int32_t colorType;
  std::uint32_t color;
  std::int32_t payloadType, reserved0;
  std::uint64_t payload;
  std::int32_t messageType;
  const char* message;
};

std::mutex mutex;
std::vector<std::string> events;
thread_local int depth = 0;
int domainToken = 0; // the domain handle given out: its address

void record(std::string event) {
  std::lock_guard lock(mutex);
  events.push_back(std::move(event));
}

std::string describe(const Attributes* a) {
  if (a == nullptr)
    return "(null attributes)";
  char head[96];
  std::snprintf(head, sizeof head, "v%u size %u category %u color %d:%08X message %d: ", a->version,
                a->size, a->category, a->colorType, a->color, a->messageType);
  return head + std::string(a->messageType == 1 && a->message != nullptr ? a->message : "?");
}

void* domainCreate(const char* name) {
  record(std::string("domain ") + name);
  return &domainToken;
}
void domainNameCategory(void* domain, std::uint32_t category, const char* name) {
  record(std::string(domain == &domainToken ? "" : "(other domain) ") + "category " +
         std::to_string(category) + " " + name);
}
int domainPush(void* domain, const Attributes* a) {
  record(std::string(domain == &domainToken ? "" : "(other domain) ") + "push " + describe(a));
  return depth++;
}
int domainPop(void* domain) {
  record(std::string(domain == &domainToken ? "" : "(other domain) ") +
         (depth > 0 ? "pop" : "pop without a push"));
  return depth > 0 ? --depth : -1;
}
int corePush(const Attributes* a) {
  record("core push " + describe(a));
  return depth++;
}
int corePop() {
  record("core pop");
  return depth > 0 ? --depth : -1;
}
void otherSlot() {
  record("a call pyk does not make");
}

// Every slot of a module gets a function, as a profiler's does; the named ones their own.
bool fill(const Callbacks* callbacks, int module, unsigned expectedSize,
          const std::vector<std::pair<unsigned, FunctionSlot>>& own) {
  FunctionSlot** table = nullptr;
  unsigned size = 0;
  if (callbacks->getModuleFunctionTable(module, &table, &size) == 0 || table == nullptr) {
    record("module " + std::to_string(module) + " has no table");
    return false;
  }
  if (size != expectedSize || table[0] != nullptr || table[size] != nullptr) {
    record("module " + std::to_string(module) + "'s table is not as NVTX lays it out");
    return false;
  }
  for (unsigned slot = 1; slot < size; ++slot)
    *table[slot] = &otherSlot;
  for (const auto& [slot, f] : own)
    *table[slot] = f;
  return true;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(GetExportTable getExportTable) {
  const char* refuse = std::getenv("PYK_FAKE_NVTX_REFUSE");
  if (refuse != nullptr && std::string(refuse) == "1")
    return 0;
  const auto* version = static_cast<const Version*>(getExportTable(3));
  if (version == nullptr || version->structSize < sizeof(Version) || version->version != 3) {
    record("no version 3 client");
    return 0;
  }
  version->setInjectionVersion(3);
  const auto* callbacks = static_cast<const Callbacks*>(getExportTable(1));
  if (callbacks == nullptr || callbacks->structSize < sizeof(Callbacks)) {
    record("no callbacks table");
    return 0;
  }
  const bool core = fill(callbacks, 1, 16,
                         {{8, reinterpret_cast<FunctionSlot>(&corePush)},
                          {11, reinterpret_cast<FunctionSlot>(&corePop)}});
  const bool core2 = fill(callbacks, 5, 16,
                          {{4, reinterpret_cast<FunctionSlot>(&domainPush)},
                           {5, reinterpret_cast<FunctionSlot>(&domainPop)},
                           {8, reinterpret_cast<FunctionSlot>(&domainNameCategory)},
                           {12, reinterpret_cast<FunctionSlot>(&domainCreate)}});
  return core && core2 ? 1 : 0;
}

extern "C" __attribute__((visibility("default"))) int pykFakeNvtxEventCount() {
  std::lock_guard lock(mutex);
  return static_cast<int>(events.size());
}

// The i-th event's text (a copy kept until the next call).
extern "C" __attribute__((visibility("default"))) const char* pykFakeNvtxEvent(int i) {
  static thread_local std::string copy;
  std::lock_guard lock(mutex);
  copy = i >= 0 && i < static_cast<int>(events.size()) ? events[static_cast<std::size_t>(i)] : "";
  return copy.c_str();
}
