// kernel: pyk::load, module["name"], kernel[{grid, block}](args...) — numba.cuda's launch syntax
// in C++. The C++ types of the arguments pick the specialization (float -> float32, std::int64_t
// -> int64, pyk::float16 -> float16, DeviceArray<float, 2> -> float32[:, ::1]); it is compiled
// once, then found in a thread-safe cache (and across processes, in the disk cache).
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "pyk/device_array.hpp"
#include "pyk/stream.hpp"

namespace pyk {

// A launch extent, as CUDA's dim3 (unset components are 1). Components are wide so that a launch
// too large for the device is reported, not truncated.
struct Dim3 {
  std::int64_t x = 1;
  std::int64_t y = 1;
  std::int64_t z = 1;
  constexpr Dim3(std::int64_t x_ = 1, std::int64_t y_ = 1, std::int64_t z_ = 1)
      : x(x_), y(y_), z(z_) {}
};

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
};

// The C++ types a scalar kernel argument or ufunc operand may have.
template <typename T>
concept KernelScalar = std::is_arithmetic_v<T> || std::is_same_v<T, float16> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>> ||
    is_datetime_value_v<T>;

struct KernelArgument;

// A tuple argument's elements (numba's UniTuple, Tuple, and named tuples: the class name and
// field names, which the kernel's `x.field` reads).
struct TupleArgument {
  std::vector<KernelArgument> elements;
  std::string class_name;               // a named tuple's class (`Point`); empty for a plain tuple
  std::vector<std::string> field_names; // a named tuple's fields, one per element
};

// An Enum or IntEnum member argument's class and member (Module::enum_member makes one).
struct EnumArgument {
  std::string class_name; // `Color`
  std::string member;     // `red`
  bool int_enum = false;  // an IntEnum's member (computes as its integer in the kernel)
};

// One argument of a launch, whatever its C++ type was. An array argument refers to the array,
// which must outlive the launch call (a launch copies nothing and allocates nothing); so does a
// record, passed as numba passes a np.void: by reference to one record in device memory (an
// array of one record), which the kernel may write. A tuple holds its elements (arrays, records,
// scalars, tuples). A pointer (numba's CPointer, as `ffi.from_buffer(a)` makes one) refers to
// its array too.
struct KernelArgument {
  enum class Kind { Array, Scalar, Record, Tuple, EnumMember, Pointer };
  Kind kind = Kind::Scalar;
  Dtype dtype = Dtype::Int64;
  const AnyDeviceArray* array = nullptr;      // Array; Record: the array of one record; Pointer
  std::shared_ptr<const TupleArgument> tuple; // Tuple
  std::shared_ptr<const EnumArgument> member; // EnumMember: its class (the value is in value)
  alignas(16) unsigned char value[16]{};      // Scalar, EnumMember: the value, in dtype

  KernelArgument() = default;
  KernelArgument(const KernelArgument&) = default;
  KernelArgument(KernelArgument&&) noexcept = default;
  KernelArgument& operator=(const KernelArgument&) = default;
  KernelArgument& operator=(KernelArgument&&) noexcept = default;
  // Inlined where a launch's argument list ends (GCC would call it once per argument).
  [[gnu::always_inline]] inline ~KernelArgument() = default;

  // An argument made already (a record, a named tuple) passes as it is.
  static KernelArgument of(const KernelArgument& a) { return a; }
  static KernelArgument of(const AnyDeviceArray& a) {
    KernelArgument k;
    k.kind = Kind::Array;
    k.dtype = a.dtype();
    k.array = &a;
    return k;
  }
  template <typename T, int N>
  static KernelArgument of(const DeviceArray<T, N>& a) {
    return of(a.untyped());
  }
  template <KernelScalar T>
  static KernelArgument of(T scalar) {
    KernelArgument k;
    k.dtype = dtype_of<T>();
    std::memcpy(k.value, &scalar, sizeof(T));
    return k;
  }
  // A std::tuple of arguments: numba's UniTuple or Tuple of their types.
  template <typename... T>
  static KernelArgument of(const std::tuple<T...>& t) {
    std::vector<KernelArgument> elements;
    std::apply([&](const auto&... e) { (elements.push_back(of(e)), ...); }, t);
    return tuple_of(std::move(elements));
  }
  // One record (`records` holds exactly one: a 0-d or one-element array of a structured dtype),
  // passed by reference as numba passes a np.void. Throws pyk::Error (InvalidArgument) otherwise.
  static KernelArgument record(const AnyDeviceArray& records);
  // The address of the first item of an array of numbers (numba's `ffi.from_buffer(a)`), for a
  // kernel parameter of type CPointer(dtype): `CPointer(float32)` for a float32 array. Throws
  // pyk::Error (InvalidArgument) for an array of records, characters or datetimes.
  static KernelArgument pointer_to(const AnyDeviceArray& a);
  template <typename T, int N>
  static KernelArgument pointer_to(const DeviceArray<T, N>& a) {
    return pointer_to(a.untyped());
  }
  // A tuple of these arguments; with a class name and one field name per element, a named tuple.
  static KernelArgument tuple_of(std::vector<KernelArgument> elements, std::string class_name = {},
                                 std::vector<std::string> field_names = {});
};

// One operand of a ufunc or gufunc call (numba's `ufunc(a, b)`, `gufunc(a, b, out)`): a host
// array, a device array or a scalar. It refers to its array, which must outlive the call: a host
// operand (a HostArray or a std::vector) is read where it lies, never copied before the call
// needs it. A host array given as an output is written in place: it has to be a non-const
// HostArray (`writable`).
struct UfuncOperand {
  enum class Kind { Host, Device, Scalar };
  Kind kind = Kind::Scalar;
  // Host: the elements (C order), their dtype and shape; `host` is the HostArray when the operand
  // is one (null for a std::vector).
  const std::byte* host_data = nullptr;
  std::size_t host_bytes = 0;
  Dtype host_dtype = Dtype::Float64;
  std::vector<std::int64_t> host_shape;
  const HostArray* host = nullptr;
  HostArray* writable = nullptr; // Host, when not const
  const AnyDeviceArray* device = nullptr;
  KernelArgument scalar;

  static UfuncOperand of(const HostArray& h) {
    UfuncOperand o;
    o.kind = Kind::Host;
    o.host = &h;
    o.host_data = h.bytes.data();
    o.host_bytes = h.bytes.size();
    o.host_dtype = h.dtype;
    o.host_shape = h.shape;
    return o;
  }
  static UfuncOperand of(HostArray& h) {
    UfuncOperand o = of(static_cast<const HostArray&>(h));
    o.writable = &h;
    return o;
  }
  static UfuncOperand of(const AnyDeviceArray& d) {
    UfuncOperand o;
    o.kind = Kind::Device;
    o.device = &d;
    return o;
  }
  template <typename T, int N>
  static UfuncOperand of(const DeviceArray<T, N>& d) {
    return of(d.untyped());
  }
  template <typename T>
  requires(!std::is_same_v<T, bool>) static UfuncOperand of(const std::vector<T>& v) {
    UfuncOperand o;
    o.kind = Kind::Host;
    o.host_data = reinterpret_cast<const std::byte*>(v.data());
    o.host_bytes = v.size() * sizeof(T);
    o.host_dtype = dtype_of<T>();
    o.host_shape = {static_cast<std::int64_t>(v.size())};
    return o;
  }
  template <KernelScalar T>
  static UfuncOperand of(T value) {
    UfuncOperand o;
    o.scalar = KernelArgument::of(value);
    return o;
  }
};

// What a ufunc or gufunc call returns: host arrays when every operand was on the host, else
// device arrays (numba's rule). `host` or `device` is the first output; a gufunc with several
// outputs has the others after it, in order.
struct UfuncResult {
  bool on_host = true;
  HostArray host;
  AnyDeviceArray device;
  std::vector<HostArray> further_host;
  std::vector<AnyDeviceArray> further_device;

  std::size_t output_count() const {
    return 1 + (on_host ? further_host.size() : further_device.size());
  }
  // Output `i` (0: the first); pyk::Error (InvalidArgument) when there is none such on that side.
  const HostArray& host_output(std::size_t i) const;
  const AnyDeviceArray& device_output(std::size_t i) const;
};

namespace aot {
struct ModuleImage;
}

namespace detail {
struct KernelState;
struct ModuleState;
struct KernelAccess;
template <typename T>
inline constexpr bool is_device_operand = false;
template <>
inline constexpr bool is_device_operand<AnyDeviceArray> = true;
template <typename T, int N>
inline constexpr bool is_device_operand<DeviceArray<T, N>> = true;
} // namespace detail

class Kernel {
public:
  // A kernel with its launch configuration, waiting for its arguments.
  class Configured {
  public:
    template <typename... Args>
    void operator()(const Args&... args) const {
      const KernelArgument list[] = {KernelArgument::of(args)..., KernelArgument()};
      if (forallTasks_ >= 0)
        kernel_->launch_forall(forallTasks_, shape_.block.x, sharedBytes_,
                               std::span(list, sizeof...(Args)), stream_);
      else
        kernel_->launch_with(shape_, sharedBytes_, std::span(list, sizeof...(Args)), stream_);
    }

  private:
    friend class Kernel;
    Configured(const Kernel* kernel, LaunchShape shape, std::size_t shared_bytes,
               const Stream& stream, std::int64_t forall_tasks = -1)
        : kernel_(kernel), shape_(shape), sharedBytes_(shared_bytes), stream_(stream),
          forallTasks_(forall_tasks) {}
    const Kernel* kernel_;
    LaunchShape shape_;
    std::size_t sharedBytes_;
    Stream stream_;
    std::int64_t forallTasks_; // forall(): the thread count, the grid chosen at the call
  };

  Configured operator[](const LaunchShape& shape) const {
    return Configured(this, shape, 0, Stream());
  }
#if defined(__cpp_multidimensional_subscript) && __cpp_multidimensional_subscript >= 202110L
  Configured operator[](Dim3 grid, Dim3 block) const {
    return Configured(this, {grid, block}, 0, Stream());
  }
  Configured operator[](Dim3 grid, Dim3 block, const Stream& stream) const {
    return Configured(this, {grid, block}, 0, stream);
  }
  Configured operator[](Dim3 grid, Dim3 block, const Stream& stream,
                        std::size_t shared_bytes) const {
    return Configured(this, {grid, block}, shared_bytes, stream);
  }
#endif
  // numba's kernel[grid, block, stream, sharedmem].
  Configured launch(Dim3 grid, Dim3 block, const Stream& stream = Stream(),
                    std::size_t shared_bytes = 0) const {
    return Configured(this, {grid, block}, shared_bytes, stream);
  }

  // numba's kernel.forall(ntasks, tpb=0, stream=0, sharedmem=0): a 1-D launch of at least
  // `tasks` threads in blocks of `threads_per_block`; 0 lets the launch choose for the
  // specialization it runs: on CUDA the block size with the most threads resident per
  // multiprocessor (the occupancy calculator's choice, as numba's), on the CPU backend 256.
  Configured forall(std::int64_t tasks, std::int64_t threads_per_block = 0,
                    const Stream& stream = Stream(), std::size_t shared_bytes = 0) const;

  // numba's kernel.specialize(*args): this kernel compiled now, for the types of `args`, on the
  // backend they are on (the current one when there are no arrays); the Kernel returned takes
  // only arguments of those types (a launch with others is a pyk::Error naming both).
  template <typename... Args>
  Kernel specialize(const Args&... args) const {
    const KernelArgument list[] = {KernelArgument::of(args)..., KernelArgument()};
    return specialize_for(std::span(list, sizeof...(Args)));
  }
  Kernel specialize_for(std::span<const KernelArgument> args) const;
  // numba's kernel.overloads: the specializations compiled or loaded so far, one line each:
  // `saxpy(float32, float32[::1], float32[::1]) on cpu` (`on cuda device 0`, then `index32` for
  // the 32-bit index variant).
  std::vector<std::string> overloads() const;
  // numba's max_cooperative_grid_blocks(blockdim, dynsmemsize=0), of a specialized kernel (made
  // by specialize()): the most blocks of `block` a cooperative launch (a kernel that calls
  // cuda.cg.this_grid().sync()) can have at once on its backend: the device's multiprocessors
  // times the blocks each holds on CUDA, the CPU backend's limit of blocks and fibers there.
  // pyk::Error (InvalidArgument) for a kernel not specialized.
  std::int64_t max_cooperative_grid_blocks(Dim3 block, std::size_t dynamic_shared_bytes = 0) const;

  // numba's call of a @vectorize ufunc or a @guvectorize gufunc: the inputs (host arrays, device
  // arrays, scalars, std::vectors), then optionally the outputs (device arrays or non-const
  // HostArrays, written in place). A ufunc's operands broadcast together by numpy's rules; a
  // gufunc's trailing dimensions are each operand's core dimensions (its layout's, e.g.
  // `(m,n),(n,p)->(m,p)`, bound consistently across operands) and the leading ones, its loop
  // dimensions, broadcast. Outputs not given are allocated in the loop shape followed by their
  // core dimensions. The kernel runs once per loop element. With only host operands the result
  // is a HostArray (copied back); with a device array among them it is an AnyDeviceArray on that
  // array's backend, and only the host operands are copied. A function with target='cpu' or
  // 'parallel' runs on the CPU backend. The signature is the first whose dtypes are the inputs'
  // (and the given outputs'), else the first the host inputs can be cast to safely (numpy's rule);
  // device operands and outputs are never converted. Throws pyk::Error (InvalidArgument) naming the
  // operands, shapes, dimensions or types that do not fit; a gufunc with several outputs is
  // called with outputs() or call().
  template <typename... Args>
  auto operator()(Args&&... args) const {
    if (output_count() > 1)
      throw_several_outputs();
    UfuncResult r = call_with(args...);
    if constexpr ((detail::is_device_operand<std::remove_cvref_t<Args>> || ...))
      return r.device;
    else
      return r.host;
  }
  // The same returning every output, in order (numba returns them as a tuple).
  template <typename... Args>
  auto outputs(Args&&... args) const {
    UfuncResult r = call_with(args...);
    if constexpr ((detail::is_device_operand<std::remove_cvref_t<Args>> || ...)) {
      std::vector<AnyDeviceArray> all{r.device};
      all.insert(all.end(), r.further_device.begin(), r.further_device.end());
      return all;
    } else {
      std::vector<HostArray> all{std::move(r.host)};
      for (HostArray& h : r.further_host)
        all.push_back(std::move(h));
      return all;
    }
  }
  // The same with operands of any kind, queued on `stream`; `out`, when given, is the output of a
  // function that has one (its dtype and shape, on the operands' backend), written and held by
  // the result, as numba's `out=`.
  UfuncResult call(std::span<const UfuncOperand> operands, const Stream& stream = Stream(),
                   const AnyDeviceArray* out = nullptr) const;
  // How many outputs a call gives: 1 for a @vectorize ufunc, its layout's for a @guvectorize
  // gufunc, 0 for anything else.
  std::size_t output_count() const;

  // The launch with arguments of any type (what `pykc run` and the calls above use). Checks the
  // configuration (the device's limits) and the arguments against the kernel before anything
  // runs; throws pyk::Error. It runs on the backend its arrays belong to (the current backend when
  // it has none), queued on `stream` on CUDA.
  void launch_with(const LaunchShape& shape, std::size_t shared_bytes,
                   std::span<const KernelArgument> args, const Stream& stream = Stream()) const;

  const std::string& name() const;
  // How the CPU backend runs the specialization for `args` ("loop", "split" or "fiber", and why
  // fibers), compiling it if needed. For tests and tuning.
  std::string execution_mode(std::span<const KernelArgument> args) const;
  // The CUDA C++ pyk compiles for `args` on CUDA (the specialization's translation unit), and
  // what it was compiled to for the current device ("cubin sm_90" or "ptx compute_90", then
  // " index32" for the variant with 32-bit index arithmetic, which a launch with these arrays
  // runs when each grid axis also has fewer than 2**31 threads), compiling and loading it if
  // needed. For tests and tuning.
  std::string cuda_source(std::span<const KernelArgument> args) const;
  std::string cuda_target(std::span<const KernelArgument> args) const;
  // The CUfunction of that specialization on the current device, for launching it through the
  // Driver API or capturing it in a CUDA graph (its parameters are the entry point's, as
  // cuda_source shows).
  void* cuda_function(std::span<const KernelArgument> args) const;

private:
  friend class Module;
  friend struct detail::KernelAccess;
  explicit Kernel(std::shared_ptr<detail::KernelState> state) : state_(std::move(state)) {}
  template <typename... Args>
  UfuncResult call_with(Args&... args) const {
    const UfuncOperand list[] = {UfuncOperand::of(args)..., UfuncOperand()};
    return call(std::span<const UfuncOperand>(list, sizeof...(Args)));
  }
  [[noreturn]] void throw_several_outputs() const;
  void launch_forall(std::int64_t tasks, std::int64_t threads_per_block, std::size_t shared_bytes,
                     std::span<const KernelArgument> args, const Stream& stream) const;
  std::shared_ptr<detail::KernelState> state_;
};

// How pyk::load reads a module.
struct LoadOptions {
  // Where `import helpers` / `from helpers import clamp` look for helpers.pyk or helpers.py after
  // the module's own directory (then PYK_PATH's directories), as Python's sys.path.
  std::vector<std::filesystem::path> include_dirs{};
  // CUDA C++ files (.cu) compiled and linked with every kernel of the module, as numba's
  // `@cuda.jit(link=[...])`: functions there that `cuda.declare_device` declares (relative to
  // the module's directory, then the working directory).
  std::vector<std::filesystem::path> link{};
};

class Module {
public:
  // The kernel (or @vectorize ufunc, or @guvectorize gufunc) named `name`; pyk::Error
  // (InvalidArgument) if none.
  Kernel operator[](const std::string& name) const;
  std::vector<std::string> kernel_names() const;
  // What pyk warns about in the module's source (constructs numba compiles that Python would
  // reject, such as a read no assignment reaches), located as pykc prints them; empty when
  // nothing. Loading does not print them.
  std::string warnings() const;
  // A member of one of the module's Enum or IntEnum classes, `"Color.red"`, as a kernel argument:
  // numba passes it typed as a member of its class (`x == Color.red`, `x is Color.red`,
  // `x.value` in the kernel), valued as its value. pyk::Error (InvalidArgument) when the module
  // has no such class or member, or its value is not a number.
  KernelArgument enum_member(const std::string& qualified_name) const;

private:
  friend Module load(const std::filesystem::path& path, const LoadOptions& options);
  friend Module loads(const std::string& source, const std::string& name,
                      const LoadOptions& options);
  friend Module load(const aot::ModuleImage& image);
  explicit Module(std::shared_ptr<detail::ModuleState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::ModuleState> state_;
};

// Reads, parses and checks a .pyk file, and the modules of the user's it imports. Throws
// pyk::Error (File when it cannot be read, Compile with the located diagnostics when it has
// errors).
Module load(const std::filesystem::path& path, const LoadOptions& options = {});
// The same for source text; `name` stands for the file in messages (and its directory is where
// its imports are looked for first).
Module loads(const std::string& source, const std::string& name = "<source>",
             const LoadOptions& options = {});

// Waits for the compiles the CPU backend runs in the background. A kernel with barriers (split
// mode) is compiled first for any block shape, then, from its second launch with a block shape,
// once more for that shape in the background; launches of that shape run the specialized version
// once it is ready (it is faster, never different). Launch twice, then call this, before timing
// such a kernel.
void wait_for_compiles();

} // namespace pyk
