// FakeNvrtc: a stand-in NVRTC for the tests of the runtime's CUDA backend on machines without the
// CUDA toolkit. "Compiling" checks the options and returns an image that is the source's text,
// prefixed by the target, which the fake driver (tests/unit/runtime/fake_driver) loads. It knows
// the architectures 75, 80 and 90, so a device of another one gets PTX. A source containing
// `#error` fails with that line as the log. pykFakeNvrtcCompiles() counts compilations.
// A test library built with the tests, never installed.
#include <cstddef>
#include <cstring>
#include <mutex>
#include <string>

namespace {
struct Program {
  std::string source;
  std::string log;
  std::string image;
};
std::mutex mutex;
int compiles = 0;
constexpr int kSuccess = 0;
constexpr int kInvalidInput = 3;
constexpr int kInvalidOption = 5;
constexpr int kCompilation = 6;
} // namespace

using nvrtcProgram = Program*;
#define PYK_FAKE extern "C" __attribute__((visibility("default")))

PYK_FAKE const char* nvrtcGetErrorString(int result) {
  switch (result) {
  case kSuccess:
    return "NVRTC_SUCCESS";
  case kInvalidInput:
    return "NVRTC_ERROR_INVALID_INPUT";
  case kInvalidOption:
    return "NVRTC_ERROR_INVALID_OPTION";
  case kCompilation:
    return "NVRTC_ERROR_COMPILATION";
  default:
    return "NVRTC_ERROR_INTERNAL_ERROR";
  }
}
PYK_FAKE int nvrtcVersion(int* major, int* minor) {
  *major = 13;
  *minor = 0;
  return kSuccess;
}
PYK_FAKE int nvrtcGetNumSupportedArchs(int* count) {
  *count = 3;
  return kSuccess;
}
PYK_FAKE int nvrtcGetSupportedArchs(int* archs) {
  archs[0] = 75;
  archs[1] = 80;
  archs[2] = 90;
  return kSuccess;
}
PYK_FAKE int nvrtcCreateProgram(nvrtcProgram* program, const char* source, const char*, int,
                                const char* const*, const char* const*) {
  if (source == nullptr)
    return kInvalidInput;
  *program = new Program{source, "", ""};
  return kSuccess;
}
PYK_FAKE int nvrtcDestroyProgram(nvrtcProgram* program) {
  delete *program;
  *program = nullptr;
  return kSuccess;
}
PYK_FAKE int nvrtcCompileProgram(nvrtcProgram program, int count, const char* const* options) {
  std::string arch;
  for (int i = 0; i < count; ++i)
    if (std::strncmp(options[i], "--gpu-architecture=", 19) == 0)
      arch = options[i] + 19;
  if (arch.empty())
    return kInvalidOption;
  {
    std::lock_guard lock(mutex);
    ++compiles;
  }
  const std::size_t error = program->source.find("#error");
  if (error != std::string::npos) {
    program->log = program->source.substr(error, program->source.find('\n', error) - error);
    return kCompilation;
  }
  program->image = "// fake image for " + arch + "\n" + program->source;
  return kSuccess;
}
PYK_FAKE int nvrtcGetProgramLogSize(nvrtcProgram program, std::size_t* size) {
  *size = program->log.size() + 1;
  return kSuccess;
}
PYK_FAKE int nvrtcGetProgramLog(nvrtcProgram program, char* log) {
  std::memcpy(log, program->log.c_str(), program->log.size() + 1);
  return kSuccess;
}
PYK_FAKE int nvrtcGetPTXSize(nvrtcProgram program, std::size_t* size) {
  *size = program->image.size() + 1;
  return kSuccess;
}
PYK_FAKE int nvrtcGetPTX(nvrtcProgram program, char* ptx) {
  std::memcpy(ptx, program->image.c_str(), program->image.size() + 1);
  return kSuccess;
}
PYK_FAKE int nvrtcGetCUBINSize(nvrtcProgram program, std::size_t* size) {
  *size = program->image.size() + 1; // text with its NUL, as the fake driver reads it
  return kSuccess;
}
PYK_FAKE int nvrtcGetCUBIN(nvrtcProgram program, char* cubin) {
  std::memcpy(cubin, program->image.c_str(), program->image.size() + 1);
  return kSuccess;
}
PYK_FAKE int pykFakeNvrtcCompiles() {
  std::lock_guard lock(mutex);
  return compiles;
}
