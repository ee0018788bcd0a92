// UfuncCall: numba's call mechanism for @vectorize ufuncs and @guvectorize gufuncs from the host.
// A ufunc is the gufunc whose operands have no core dimensions, so one path serves both. Every
// operand becomes an array on the call's backend (host arrays and scalars are copied there); the
// trailing dimensions of each are its core dimensions (bound by name across operands), the
// leading ones its loop dimensions (broadcast by numpy's rules). The kernel takes one loop
// dimension, so each operand is passed as a view whose loop dimensions collapse into one stride
// (contiguous arrays, broadcast scalars and rows), else as a contiguous copy made on the device
// (numba copies through the host). Outputs are allocated in the loop shape and their core
// dimensions, unless given.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>

#include "memory/ArrayAccess.h"
#include "module/Broadcasting.h"
#include "module/ModuleState.h"
#include "module/ScalarConversion.h"
#include "module/StreamState.h"
#include "module/StridedCopy.h"
#include "module/UfuncSignature.h"

namespace pyk {

using types::ArrayLayout;
using types::ScalarKind;

namespace {

// How the kernel takes one operand (inputs first, then outputs).
struct OperandForm {
  std::vector<std::string> coreDims;   // the layout's names (or numbers); none in a ufunc
  bool scalar = true;                  // a 1-D array, one value per loop index (`arg(i)`)
  ArrayLayout layout = ArrayLayout::A; // an array parameter's, which its core dimensions must fit
  Dtype dtype = Dtype::Float64;        // the chosen signature's
};

// `bytes` of `count` elements of `from` converted to `to`, element by element as numba converts.
std::vector<std::byte> convertElements(const std::byte* bytes, std::int64_t count, Dtype from,
                                       Dtype to) {
  std::vector<std::byte> out(static_cast<std::size_t>(count) * dtype_itemsize(to));
  const ScalarKind kind = detail::scalarKindOf(to);
  for (std::int64_t i = 0; i < count; ++i) {
    KernelArgument a;
    a.dtype = from;
    std::memcpy(a.value, bytes + i * static_cast<std::int64_t>(dtype_itemsize(from)),
                dtype_itemsize(from));
    unsigned char converted[16];
    detail::convertScalar(a, kind, converted);
    std::memcpy(out.data() + i * static_cast<std::int64_t>(dtype_itemsize(to)), converted,
                dtype_itemsize(to));
  }
  return out;
}

std::int64_t element_count(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t e : shape)
    n *= e;
  return n;
}

// Operand `o` (of dtype `from`) as an array of `want` on `backend`: a device array as it is, a
// host array or scalar copied there and converted; with its own shape (a 0-d operand is one
// element). With `borrowHost` (the CPU backend, a call that finishes before it returns) a host
// array of the right dtype is used where it lies, not copied. `context` names the operand in
// errors.
std::pair<AnyDeviceArray, std::vector<std::int64_t>>
placeOperand(const UfuncOperand& o, Dtype from, Dtype want, Backend backend, bool borrowHost,
             const Stream& stream, const std::string& context) {
  if (o.kind == UfuncOperand::Kind::Device)
    return {*o.device, o.device->shape()};
  std::vector<std::int64_t> shape;
  std::vector<std::byte> bytes;
  if (o.kind == UfuncOperand::Kind::Host) {
    if (o.host != nullptr && !o.host->is_consistent())
      throw Error(ErrorKind::InvalidArgument,
                  context + ": the host array's size does not match its dtype and shape");
    shape = o.host_shape;
    if (from == want) {
      const std::int64_t count = std::max<std::int64_t>(1, element_count(shape));
      if (borrowHost && backend == Backend::Cpu && element_count(shape) > 0) {
        std::vector<std::int64_t> flatShape = {count},
                                  strides = {static_cast<std::int64_t>(dtype_itemsize(want))};
        AnyDeviceArray a =
            detail::ArrayAccess::wrap(Backend::Cpu, 0, const_cast<std::byte*>(o.host_data), want,
                                      flatShape, strides, nullptr, "ufunc call");
        return {shape.empty() ? a : a.reshape(shape), shape};
      }
      AnyDeviceArray a = detail::ArrayAccess::allocate(backend, want, {count});
      a.copy_from_host(o.host_data, o.host_bytes, stream);
      return {shape.empty() ? a : a.reshape(shape), shape};
    }
    bytes = convertElements(o.host_data, element_count(shape), from, want);
  } else {
    bytes = convertElements(reinterpret_cast<const std::byte*>(o.scalar.value), 1, from, want);
  }
  AnyDeviceArray a = detail::ArrayAccess::allocate(
      backend, want, {std::max<std::int64_t>(1, element_count(shape))});
  a.copy_from_host(bytes.data(), bytes.size(), stream);
  return {shape.empty() ? a : a.reshape(shape), shape};
}

std::string spellingOf(const std::vector<std::string>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + dims[i];
  return s + ")";
}

bool isNumber(const std::string& dim) {
  return !dim.empty() && std::isdigit(static_cast<unsigned char>(dim[0]));
}

// The extent of every named core dimension, bound from the trailing dimensions of the operands
// with `shapes` (the inputs, then any outputs given) and checked across them and against the
// numbers in `layout`; `loopShapes` receives each input's leading (loop) dimensions. `what` and
// `describe(i)` name the function and operand i in errors.
template <typename Describe>
std::map<std::string, std::int64_t>
bindCoreDimensions(const std::vector<OperandForm>& forms,
                   const std::vector<std::vector<std::int64_t>>& shapes, size_t inputs,
                   const std::string& layout, const std::string& what, const Describe& describe,
                   std::vector<std::vector<std::int64_t>>& loopShapes) {
  std::map<std::string, std::pair<std::int64_t, size_t>> bound; // extent, operand
  for (size_t i = 0; i < shapes.size(); ++i) {
    const std::vector<std::string>& dims = forms[i].coreDims;
    const std::vector<std::int64_t>& shape = shapes[i];
    if (shape.size() < dims.size())
      throw Error(ErrorKind::InvalidArgument, describe(i) + " has " + std::to_string(shape.size()) +
                                                  " dimension(s), but its core dimensions " +
                                                  spellingOf(dims) + " in " + layout + " need " +
                                                  std::to_string(dims.size()));
    const size_t loopRank = shape.size() - dims.size();
    for (size_t k = 0; k < dims.size(); ++k) {
      const std::int64_t extent = shape[loopRank + k];
      if (isNumber(dims[k])) {
        if (std::to_string(extent) != dims[k])
          throw Error(ErrorKind::InvalidArgument,
                      describe(i) + " has extent " + std::to_string(extent) +
                          " in its core dimension " + std::to_string(k) + ", which " + layout +
                          " fixes at " + dims[k]);
        continue;
      }
      auto [it, fresh] = bound.emplace(dims[k], std::make_pair(extent, i));
      if (!fresh && it->second.first != extent)
        throw Error(ErrorKind::InvalidArgument,
                    what + ": the core dimension `" + dims[k] + "` is " +
                        std::to_string(it->second.first) + " in operand " +
                        std::to_string(it->second.second) + " but " + std::to_string(extent) +
                        " in operand " + std::to_string(i) + " (layout " + layout + ")");
    }
    if (i < inputs)
      loopShapes.emplace_back(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(loopRank));
  }
  std::map<std::string, std::int64_t> extents;
  for (const auto& [name, value] : bound)
    extents.emplace(name, value.first);
  return extents;
}

// Whether the dimensions of `a` from `first` on are contiguous in `layout`'s order (C: the last
// varies fastest; F: the first), as an array parameter of that layout indexes them.
bool coreFits(const AnyDeviceArray& a, int first, ArrayLayout layout) {
  if (layout == ArrayLayout::A)
    return true;
  std::int64_t expected = static_cast<std::int64_t>(a.itemsize());
  const int n = a.ndim() - first;
  for (int k = 0; k < n; ++k) {
    const int d = layout == ArrayLayout::C ? a.ndim() - 1 - k : first + k;
    if (a.shape()[d] == 0)
      return true;
    if (a.shape()[d] != 1 && a.strides()[d] != expected)
      return false;
    expected *= a.shape()[d];
  }
  return true;
}

// A view of `a` with dimensions [first, ndim) reversed.
AnyDeviceArray reversedFrom(const AnyDeviceArray& a, int first) {
  std::vector<std::int64_t> shape = a.shape(), strides = a.strides();
  std::reverse(shape.begin() + first, shape.end());
  std::reverse(strides.begin() + first, strides.end());
  return detail::ArrayAccess::restride(a, shape, strides);
}

// `full` (its loop dimensions, then `form`'s core dimensions) as the kernel takes it: the loop
// dimensions as one of `count` elements, then the core dimensions (one of extent 1 for an array
// parameter with none); none when its strides do not allow that.
std::optional<AnyDeviceArray> kernelView(const AnyDeviceArray& full, std::int64_t count,
                                         const OperandForm& form) {
  const int coreRank = static_cast<int>(form.coreDims.size());
  const int loopRank = full.ndim() - coreRank; // a 0-d operand is 1 element: one loop dimension
  const std::optional<std::int64_t> loopStride = detail::collapsedStride(full, 0, loopRank);
  if (!loopStride || !coreFits(full, loopRank, form.layout))
    return std::nullopt;
  std::vector<std::int64_t> shape{count}, strides{*loopStride};
  for (int d = loopRank; d < full.ndim(); ++d) {
    shape.push_back(full.shape()[d]);
    strides.push_back(full.strides()[d]);
  }
  if (!form.scalar && coreRank == 0) {
    shape.push_back(1);
    strides.push_back(static_cast<std::int64_t>(full.itemsize()));
  }
  return detail::ArrayAccess::restride(full, shape, strides);
}

// A new array on `backend` of `shape` whose loop dimensions collapse and whose `coreRank` trailing
// dimensions fit `layout`.
AnyDeviceArray allocateFitting(Backend backend, Dtype dtype, std::vector<std::int64_t> shape,
                               int coreRank, ArrayLayout layout) {
  const int first = static_cast<int>(shape.size()) - coreRank;
  if (layout != ArrayLayout::F || coreRank < 2)
    return detail::ArrayAccess::allocate(backend, dtype, shape);
  std::reverse(shape.begin() + first, shape.end());
  return reversedFrom(detail::ArrayAccess::allocate(backend, dtype, shape), first);
}

// A copy of `view` on its backend whose loop dimensions collapse and whose `coreRank` trailing
// dimensions fit `layout`.
AnyDeviceArray copyFitting(const AnyDeviceArray& view, int coreRank, ArrayLayout layout,
                           const Stream& stream) {
  const int first = view.ndim() - coreRank;
  if (layout != ArrayLayout::F || coreRank < 2)
    return detail::contiguousCopy(view, stream);
  // The core dimensions reversed and copied in C order lie in F order once reversed back.
  return reversedFrom(detail::contiguousCopy(reversedFrom(view, first), stream), first);
}

} // namespace

const HostArray& UfuncResult::host_output(std::size_t i) const {
  if (!on_host || i >= output_count())
    throw Error(ErrorKind::InvalidArgument,
                "UfuncResult: no host output " + std::to_string(i) + " (the result has " +
                    std::to_string(output_count()) + (on_host ? " host" : " device") + " outputs)");
  return i == 0 ? host : further_host[i - 1];
}

const AnyDeviceArray& UfuncResult::device_output(std::size_t i) const {
  if (on_host || i >= output_count())
    throw Error(ErrorKind::InvalidArgument,
                "UfuncResult: no device output " + std::to_string(i) + " (the result has " +
                    std::to_string(output_count()) + (on_host ? " host" : " device") + " outputs)");
  return i == 0 ? device : further_device[i - 1];
}

std::size_t Kernel::output_count() const {
  const jit::FunctionInfo& f = *state_->function;
  if (f.kind == types::CompiledFunctionKind::Vectorize)
    return 1;
  if (f.kind == types::CompiledFunctionKind::GuVectorize && f.gufuncLayout)
    return f.gufuncLayout->outputs.size();
  return 0;
}

void Kernel::throw_several_outputs() const {
  throw Error(ErrorKind::InvalidArgument,
              state_->module->path() + ": the gufunc `" + name() + "` has " +
                  std::to_string(output_count()) +
                  " outputs: call it with outputs(...), which returns them all, or call(...)");
}

UfuncResult Kernel::call(std::span<const UfuncOperand> operands, const Stream& stream,
                         const AnyDeviceArray* out) const {
  const jit::FunctionInfo& f = *state_->function;
  const std::string where = state_->module->path() + ": ";
  const bool gufunc = f.kind == types::CompiledFunctionKind::GuVectorize;
  if (f.kind != types::CompiledFunctionKind::Vectorize && !gufunc)
    throw Error(ErrorKind::InvalidArgument,
                where + "`" + f.name + "` is a " + types::nameOf(f.kind) +
                    (f.kind == types::CompiledFunctionKind::Kernel
                         ? ", not a ufunc: launch it with kernel[grid, block](...)"
                         : ", not a @vectorize or @guvectorize function; calling it from the host "
                           "is not supported yet"));
  if (detail::capturingGraph(stream) != nullptr)
    throw Error(ErrorKind::InvalidArgument,
                where + "`" + f.name +
                    "`: a ufunc call cannot be captured into a graph yet (it allocates its outputs "
                    "and copies host operands at the call); call it outside the capture");
  if (gufunc && !f.gufuncLayout)
    throw Error(ErrorKind::InvalidArgument,
                where + "the gufunc `" + f.name + "` has no layout such as '(n),(n)->()'");
  const std::string what = std::string(gufunc ? "the gufunc `" : "the ufunc `") + f.name + "`";
  const size_t inputs = gufunc ? f.gufuncLayout->inputs.size() : f.parameterNames.size();
  const size_t outputs = gufunc ? f.gufuncLayout->outputs.size() : 1;
  const size_t total = inputs + outputs;

  // The operands as given: the inputs, then every output or none (`out` is the last one).
  std::vector<UfuncOperand> given(operands.begin(), operands.end());
  if (out != nullptr) {
    if (outputs != 1 || given.size() != inputs)
      throw Error(ErrorKind::InvalidArgument, where + what + " has " + std::to_string(outputs) +
                                                  " output" + (outputs == 1 ? "" : "s") +
                                                  " and was given " + std::to_string(given.size()) +
                                                  " operands: `out` is its one output, given "
                                                  "after its inputs only");
    given.push_back(UfuncOperand::of(*out));
  }
  if (given.size() != inputs && given.size() != total)
    throw Error(ErrorKind::InvalidArgument,
                where + what + " takes " + std::to_string(inputs) +
                    " operands (then, optionally, " +
                    (outputs == 1 ? "its output" : "its " + std::to_string(outputs) + " outputs") +
                    "); " + std::to_string(given.size()) + " given");
  auto describe = [&](size_t i) {
    return where + "operand " + std::to_string(i) +
           (i >= inputs ? " (output " + std::to_string(i - inputs) + ")" : "") + " of " + what;
  };
  for (size_t i = inputs; i < given.size(); ++i) {
    const UfuncOperand& o = given[i];
    if (o.kind == UfuncOperand::Kind::Scalar)
      throw Error(ErrorKind::InvalidArgument,
                  describe(i) + " is a scalar: an output is an array, written in place");
    if (o.kind == UfuncOperand::Kind::Host && o.writable == nullptr)
      throw Error(ErrorKind::InvalidArgument,
                  describe(i) +
                      (o.host == nullptr ? " is a std::vector, which the call only reads"
                                         : " is a const HostArray") +
                      ": give a non-const HostArray or a device array, written in place");
  }

  // The backend: the CPU for target='cpu'|'parallel', else the device operands' (one), else the
  // current one.
  const bool cpuTarget = f.target == "cpu" || f.target == "parallel";
  std::optional<Backend> backend;
  bool anyDevice = false;
  for (const UfuncOperand& o : given) {
    if (o.kind != UfuncOperand::Kind::Device)
      continue;
    anyDevice = true;
    if (o.device->empty())
      throw Error(ErrorKind::InvalidArgument,
                  where + what + " has an empty (default-constructed) device array operand");
    const Backend b = o.device->backend();
    if (backend && *backend != b)
      throw Error(ErrorKind::InvalidArgument,
                  where + what + " has device operands on different backends");
    backend = b;
  }
  if (!backend)
    backend = cpuTarget ? Backend::Cpu : current_backend();
  if (cpuTarget && *backend != Backend::Cpu)
    throw Error(ErrorKind::InvalidArgument,
                where + what + " has target='" + f.target +
                    "': give it host arrays or CPU-backend arrays, not CUDA device arrays");

  // The signature: exact dtypes first, else a safe cast of the host inputs.
  std::vector<detail::SignatureOperand> choice;
  for (size_t i = 0; i < given.size(); ++i) {
    const UfuncOperand& o = given[i];
    choice.push_back({o.kind == UfuncOperand::Kind::Host     ? o.host_dtype
                      : o.kind == UfuncOperand::Kind::Device ? o.device->dtype()
                                                             : o.scalar.dtype,
                      i < inputs && o.kind != UfuncOperand::Kind::Device});
  }
  const types::FunctionSignature& chosen = detail::chooseSignature(f, choice, inputs, where, what);
  std::vector<OperandForm> forms(total);
  for (size_t i = 0; i < total; ++i) {
    const std::optional<Dtype> dtype = detail::signatureOperandDtype(chosen, i);
    if (!dtype)
      throw Error(ErrorKind::InvalidArgument,
                  describe(i) + " has a type no array of numbers has in the signature " +
                      chosen.spelling() +
                      ": a call from the host takes numbers and arrays of them");
    forms[i].dtype = *dtype;
    if (!gufunc)
      continue;
    const types::NumbaType& p = chosen.params[i];
    forms[i].coreDims = f.gufuncLayout->operand(i);
    forms[i].scalar = !p.isArray();
    if (p.isArray())
      forms[i].layout = p.layout();
    if (i >= inputs && forms[i].scalar)
      throw Error(ErrorKind::InvalidArgument, describe(i) + " is typed `" + p.spelling() +
                                                  "` in the signature " + chosen.spelling() +
                                                  ": an output must be an array (`" + p.spelling() +
                                                  "[:]` for `()`)");
  }

  // Every given operand as an array on the backend, with its own shape (a 0-d one is one element).
  std::vector<AnyDeviceArray> arrays;
  std::vector<std::vector<std::int64_t>> shapes;
  for (size_t i = 0; i < given.size(); ++i) {
    auto [array, shape] = placeOperand(given[i], choice[i].dtype, forms[i].dtype, *backend,
                                       /*borrowHost=*/!anyDevice, stream, describe(i));
    arrays.push_back(std::move(array));
    shapes.push_back(std::move(shape));
  }

  // The core dimensions, bound from the operands' trailing dimensions; the loop shape, the
  // inputs' leading dimensions broadcast.
  std::vector<std::vector<std::int64_t>> loopShapes;
  const std::map<std::string, std::int64_t> extents =
      bindCoreDimensions(forms, shapes, inputs, f.gufuncLayout ? f.gufuncLayout->spelling() : "",
                         where + what, describe, loopShapes);
  const std::vector<std::int64_t> loopShape = detail::broadcastShape(loopShapes, where + what);
  const std::int64_t count = element_count(loopShape);
  std::vector<std::vector<std::int64_t>> fullShapes(total);
  for (size_t i = 0; i < total; ++i) {
    fullShapes[i] = loopShape;
    for (const std::string& d : forms[i].coreDims)
      fullShapes[i].push_back(isNumber(d) ? std::stoll(d) : extents.at(d));
  }

  // The outputs: the given ones checked, the others allocated.
  std::vector<std::optional<HostArray>> direct(total);
  for (size_t i = inputs; i < total; ++i) {
    if (i < given.size()) {
      const AnyDeviceArray& a = arrays[i];
      const bool zeroD = fullShapes[i].empty() && a.size() == 1 && shapes[i].size() <= 1;
      if (a.backend() != *backend || a.dtype() != forms[i].dtype ||
          (shapes[i] != fullShapes[i] && !zeroD))
        throw Error(ErrorKind::InvalidArgument,
                    describe(i) + " must be a " + std::string(dtype_name(forms[i].dtype)) +
                        " array of shape " + detail::describeShape(fullShapes[i]) + " on the " +
                        backend_name(*backend) + " backend, not a " +
                        std::string(dtype_name(a.dtype())) + " array of shape " +
                        detail::describeShape(shapes[i]) + " on the " + backend_name(a.backend()) +
                        " backend");
      continue;
    }
    const std::vector<std::int64_t> outShape =
        fullShapes[i].empty() ? std::vector<std::int64_t>{1} : fullShapes[i];
    const bool cOrder = forms[i].layout != ArrayLayout::F || forms[i].coreDims.size() < 2;
    if (!anyDevice && *backend == Backend::Cpu && cOrder && forms[i].dtype != Dtype::Record) {
      // A result for the host, computed on the CPU: written straight into the host array.
      HostArray h;
      h.dtype = forms[i].dtype;
      h.shape = fullShapes[i];
      h.bytes.resize(static_cast<std::size_t>(element_count(outShape)) * dtype_itemsize(h.dtype));
      std::vector<std::int64_t> strides(outShape.size());
      std::int64_t stride = static_cast<std::int64_t>(dtype_itemsize(h.dtype));
      for (size_t d = outShape.size(); d-- > 0;) {
        strides[d] = stride;
        stride *= outShape[d];
      }
      arrays.push_back(detail::ArrayAccess::wrap(Backend::Cpu, 0, h.bytes.data(), h.dtype, outShape,
                                                 strides, nullptr, "ufunc call"));
      direct[i] = std::move(h); // the vector's buffer stays where it is
    } else {
      arrays.push_back(allocateFitting(*backend, forms[i].dtype, outShape,
                                       static_cast<int>(forms[i].coreDims.size()),
                                       forms[i].layout));
    }
    shapes.push_back(fullShapes[i]);
  }

  if (count > 0) {
    // Each operand as the kernel takes it; an output that cannot be is computed into a staging
    // array and copied into place.
    std::vector<AnyDeviceArray> views;
    std::vector<std::pair<AnyDeviceArray, size_t>> staged; // staging array, output
    for (size_t i = 0; i < total; ++i) {
      const OperandForm& form = forms[i];
      const int coreRank = static_cast<int>(form.coreDims.size());
      AnyDeviceArray full = fullShapes[i].empty() || i >= inputs
                                ? arrays[i]
                                : detail::broadcastTo(arrays[i], fullShapes[i]);
      std::optional<AnyDeviceArray> view = kernelView(full, count, form);
      if (!view && i < inputs) {
        view = kernelView(copyFitting(full, coreRank, form.layout, stream), count, form);
      } else if (!view) {
        AnyDeviceArray staging =
            allocateFitting(*backend, form.dtype, full.shape(), coreRank, form.layout);
        view = kernelView(staging, count, form);
        staged.emplace_back(staging, i);
      }
      if (!view)
        throw Error(ErrorKind::Internal, describe(i) + ": its copy does not fit the kernel");
      views.push_back(*view);
    }
    std::vector<KernelArgument> args;
    for (const AnyDeviceArray& v : views)
      args.push_back(KernelArgument::of(v));
    const std::int64_t threads = 256;
    launch_with({Dim3((count + threads - 1) / threads), Dim3(threads)}, 0, args, stream);
    for (auto& [staging, i] : staged)
      arrays[i].copy_from_device(staging, stream);
  }

  // The outputs returned; given host outputs written.
  UfuncResult r;
  r.on_host = !anyDevice;
  for (size_t i = inputs; i < total; ++i) {
    const bool givenHost = i < given.size() && given[i].kind == UfuncOperand::Kind::Host;
    HostArray h;
    if (direct[i]) {
      stream.synchronize();
      h = std::move(*direct[i]);
    } else if (r.on_host || givenHost) {
      h = arrays[i].copy_to_host();
      h.shape = shapes[i]; // a 0-d result is a 0-d host array
      if (givenHost)
        *given[i].writable = h;
    }
    if (i == inputs && r.on_host)
      r.host = std::move(h);
    else if (i == inputs)
      r.device = arrays[i];
    else if (r.on_host)
      r.further_host.push_back(std::move(h));
    else
      r.further_device.push_back(arrays[i]);
  }
  return r;
}

} // namespace pyk
