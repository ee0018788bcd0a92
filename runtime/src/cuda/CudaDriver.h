// CudaDriver: the CUDA Driver API, loaded at run time with dlopen("libcuda.so.1") (or
// $PYK_LIBCUDA), never linked, so one pyk binary runs with or without an NVIDIA driver. Holds the
// entry points pyk calls, and turns a failing call into a pyk::Error naming the call, what it was
// for and CUDA's own error name and string. The types are the Driver API's C ABI, declared here so
// the runtime builds without the CUDA toolkit.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace pyk::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUdeviceptr = unsigned long long;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphExec = struct CUgraphExec_st*;
using CUgraphNode = struct CUgraphNode_st*;
// CUDA_KERNEL_NODE_PARAMS (the first version, which every driver since CUDA 10 takes).
struct KernelNodeParams {
  CUfunction function;
  unsigned gridX, gridY, gridZ;
  unsigned blockX, blockY, blockZ;
  unsigned shared_bytes;
  void** params;
  void** extra;
};
inline constexpr CUresult kCudaSuccess = 0;
inline constexpr CUresult kCudaErrorNotReady = 600;
inline constexpr CUresult kCudaErrorDeinitialized = 4;
// CUdevice_attribute values pyk reads.
inline constexpr int kAttributeMaxThreadsPerBlock = 1;
inline constexpr int kAttributeMaxSharedMemoryPerBlock = 8;
inline constexpr int kAttributeMultiprocessorCount = 16;
inline constexpr int kAttributeComputeCapabilityMajor = 75;
inline constexpr int kAttributeComputeCapabilityMinor = 76;
inline constexpr int kAttributeCooperativeLaunch = 95;
inline constexpr int kAttributeMaxSharedMemoryPerBlockOptin = 97;
// CUfunction_attribute values.
inline constexpr int kFunctionMaxThreadsPerBlock = 0;
inline constexpr int kFunctionSharedSizeBytes = 1;
inline constexpr int kFunctionMaxDynamicSharedSizeBytes = 8;
// CUpointer_attribute values, and CUmemorytype.
inline constexpr int kPointerContext = 1;
inline constexpr int kPointerMemoryType = 2;
inline constexpr int kPointerIsManaged = 8;
inline constexpr int kPointerDeviceOrdinal = 9;
inline constexpr unsigned kMemoryTypeHost = 1;
inline constexpr unsigned kMemoryTypeDevice = 2;
inline constexpr unsigned kMemAttachGlobal = 1;
inline constexpr unsigned kStreamNonBlocking = 1;
inline constexpr unsigned kEventDefault = 0;
inline constexpr unsigned kEventDisableTiming = 2;
// CUstreamCaptureMode and CUstreamCaptureStatus values.
inline constexpr int kCaptureModeRelaxed = 2;
inline constexpr int kCaptureStatusActive = 1;

class CudaDriver {
public:
  // Loads the driver library at `path` (a file name is searched as dlopen searches) and resolves
  // its entry points. Returns null and sets `whyNot` when the library is missing or lacks one.
  static std::unique_ptr<CudaDriver> load(const std::string& path, std::string& whyNot);
  // The process's driver, loaded once from the libcuda setting ($PYK_LIBCUDA) or libcuda.so.1 and
  // initialised (cuInit); null, with the reason, when there is none or it does not initialise.
  static const CudaDriver* shared(std::string* whyNot = nullptr);

  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  // Throws pyk::Error (Device): "<call> failed for <what>: CUDA_ERROR_...: <CUDA's string>".
  // An error a kernel left behind (an illegal address, a trap, an assertion), which CUDA reports
  // at a later call, also names the last kernel this thread launched.
  void check(CUresult result, const char* call, const std::string& what) const;
  // What check() names as the last kernel launched on the calling thread (a string that lives as
  // long as the process, or null).
  static void noteLaunch(const std::string* kernel);
  // CUDA's name and description of `result` ("CUDA_ERROR_NO_DEVICE: no CUDA-capable device is
  // detected"), or the number when the driver does not know it.
  std::string describe(CUresult result) const;

  // The entry points, as the Driver API declares them.
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem)(std::size_t* bytes, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext* context) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuGetErrorName)(CUresult result, const char** name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult result, const char** text) = nullptr;
  // Memory.
  CUresult (*cuMemAlloc)(CUdeviceptr* pointer, std::size_t bytes) = nullptr;
  CUresult (*cuMemAllocManaged)(CUdeviceptr* pointer, std::size_t bytes, unsigned flags) = nullptr;
  CUresult (*cuMemAllocHost)(void** pointer, std::size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*cuMemFreeHost)(void* pointer) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr to, const void* from, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void* to, CUdeviceptr from, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoD)(CUdeviceptr to, CUdeviceptr from, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr to, const void* from, std::size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void* to, CUdeviceptr from, std::size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr to, CUdeviceptr from, std::size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuPointerGetAttribute)(void* value, int attribute, CUdeviceptr pointer) = nullptr;
  // Between devices: a copy from one context's memory to another's, and whether one device can
  // address another's memory directly (else the driver stages the copy through the host).
  CUresult (*cuMemcpyPeer)(CUdeviceptr to, CUcontext toContext, CUdeviceptr from,
                           CUcontext fromContext, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr to, CUcontext toContext, CUdeviceptr from,
                                CUcontext fromContext, std::size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuDeviceCanAccessPeer)(int* can, CUdevice device, CUdevice peer) = nullptr;
  // Streams and events.
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuStreamQuery)(CUstream stream) = nullptr;
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags) = nullptr;
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventQuery)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end) = nullptr;
  // Modules and launches.
  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module,
                                  const char* name) = nullptr;
  CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction function) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                             unsigned blockX, unsigned blockY, unsigned blockZ,
                             unsigned shared_bytes, CUstream stream, void** params,
                             void** extra) = nullptr;
  CUresult (*cuLaunchCooperativeKernel)(CUfunction function, unsigned gridX, unsigned gridY,
                                        unsigned gridZ, unsigned blockX, unsigned blockY,
                                        unsigned blockZ, unsigned shared_bytes, CUstream stream,
                                        void** params) = nullptr;
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, CUfunction function,
                                                          int blockSize,
                                                          std::size_t shared_bytes) = nullptr;

  // Graphs (pyk/graph.hpp). Optional: a driver without them loads, and a capture says so.
  CUresult (*cuStreamBeginCapture)(CUstream stream, int mode) = nullptr;
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph* graph) = nullptr;
  CUresult (*cuStreamGetCaptureInfo)(CUstream stream, int* status, unsigned long long* id,
                                     CUgraph* graph, const CUgraphNode** dependencies,
                                     std::size_t* count) = nullptr;
  CUresult (*cuGraphInstantiate)(CUgraphExec* exec, CUgraph graph,
                                 unsigned long long flags) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream) = nullptr;
  CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec exec, CUgraphNode node,
                                             const KernelNodeParams* params) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph graph) = nullptr;
  // Why graphs cannot be made with this driver (the entry point it lacks); empty when they can.
  std::string graphsMissing;

private:
  CudaDriver() = default;
  void* library_ = nullptr;
};

} // namespace pyk::cuda
