// TargetSpelling: what a backend spells differently in the C++ UnitEmitter writes (thread
// indices, barriers, warp operations, shared memory, function heads). One implementation per
// backend (CudaSpelling, CpuSpelling); everything else is shared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sema/catalog/Intrinsic.h"

namespace pyk::codegen {

enum class Backend { Cuda, Cpu };

class TargetSpelling {
public:
  virtual ~TargetSpelling() = default;

  virtual Backend backend() const = 0;
  // The support header the unit includes.
  virtual std::string supportHeader() const = 0;

  // How the backend spells an intrinsic: its CUDA or CPU column of Intrinsics.def (a value such
  // as `threadIdx.x`, a function's name, a constant's literal).
  virtual std::string_view spelling(const sema::IntrinsicInfo& intrinsic) const = 0;
  // A thread-model operation (barriers, fences, lanes, warp votes, shuffles, matches) called with
  // `args` (already converted); the CPU backend passes the thread's context first.
  virtual std::string threadOperation(sema::Intrinsic op,
                                      const std::vector<std::string>& args) const = 0;
  // popc, clz, ffs or brev of a 32-bit (or, `wide`, 64-bit) integer argument.
  virtual std::string bitOperation(sema::Intrinsic op, bool wide, const std::string& arg) const = 0;

  // Declares `name`, the storage of a shared array of `count` elements of type `element`, placed
  // at `byteOffset` in the block's static shared memory (a multiple of `alignment`, numba-cuda's
  // alignment= in bytes; 0 when not given).
  virtual std::string sharedStorage(const std::string& element, const std::string& name,
                                    int64_t count, int64_t byteOffset, int64_t alignment) const = 0;
  // Declares `name`, the storage of a thread's local array of `count` elements (`bytes` in all),
  // aligned to `alignment` bytes when not 0.
  virtual std::string localStorage(const std::string& element, const std::string& name,
                                   int64_t count, int64_t bytes, int64_t alignment) const = 0;
  // The dynamic shared memory as a 1-D C-contiguous array of `element`.
  virtual std::string dynamicSharedArray(const std::string& element) const = 0;
  // A bounds-checked access to `array(indices)`: `name` and `where` (already plain text) go into
  // the message. Only the CPU backend checks; the CUDA spelling is the plain access.
  virtual std::string checkedElement(const std::string& array, const std::string& name,
                                     const std::string& where,
                                     const std::string& indices) const = 0;
  // Whether every access to the dynamic shared array is checked against the launch's dynamic
  // size (the CPU backend: an index past it would corrupt the host's heap).
  virtual bool checksDynamicShared() const = 0;
  // Ends the thread where it is, as returning from the kernel would (numba.cuda's exceptions
  // without debug=True); one statement.
  virtual std::string endThread() const = 0;
  // The first statement of a `while` loop's body, which keeps a loop without side effects from
  // being assumed to end (`while a[0] != 0: pass` loops until stopped, as numba's PTX does):
  // empty on CUDA; on the CPU an empty volatile asm, since C++'s forward-progress rule lets g++
  // delete such a loop (-ffinite-loops, which the thread loops' speed needs kept).
  virtual std::string loopProgress() const = 0;
  // A failed debug assertion: stops the kernel; the launch then fails.
  virtual std::string trap() const = 0;
  // The same with a message (`message` already escaped for a C string literal) that the launch's
  // error carries (the CPU backend) or the thread prints first (CUDA); one statement.
  virtual std::string trapWith(const std::string& message) const = 0;
  // Precedes the definition of a module-level constant array (`cuda.const.array_like`).
  virtual std::string constantArrayQualifier() const = 0;
  virtual std::string gridSync() const = 0;

  // Function heads: `head(params) {`. A kernel's own function on the CPU is the thread body the
  // entry points call; the entry points are the CPU emitter's.
  virtual std::string kernelHead(bool entry) const = 0;
  // What goes between a kernel's head and its name for its decorator's `launch_bounds=` (max
  // threads per block[, min blocks per multiprocessor[, max blocks per cluster]]) and
  // `max_registers=`; "" where the target has no such limits (the runtime checks the block size).
  virtual std::string kernelLimits(const std::vector<int64_t>& launchBounds,
                                   std::optional<int64_t> maxRegisters) const = 0;
  virtual std::string deviceFunctionHead(const std::string& returnType) const = 0;
  // The hidden first parameter and argument through which device code reaches its thread ("" if
  // none).
  virtual std::string contextParameter() const = 0;
  virtual std::string contextArgument() const = 0;
};

const TargetSpelling& cudaSpelling();
const TargetSpelling& cpuSpelling();

} // namespace pyk::codegen
