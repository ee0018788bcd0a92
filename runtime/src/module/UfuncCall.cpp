// UfuncCall: numba's ufunc call mechanism for @vectorize functions. Every operand becomes an array
// on the call's backend (host arrays and scalars are copied there), the shapes broadcast by
// numpy's rules, and each operand is passed to the 1-D ufunc kernel as a strided view of its
// broadcast elements: one stride when its dimensions collapse (contiguous arrays, broadcast
// scalars and rows), else a contiguous copy made on the device (numba copies through the host).
// The output is allocated in the broadcast shape and returned in it.
#include <algorithm>
#include <optional>

#include "memory/ArrayAccess.h"
#include "module/ModuleState.h"
#include "module/ScalarConversion.h"
#include "module/StridedCopy.h"

namespace pyk {

using sema::NumbaType;
using sema::ScalarKind;

namespace {

std::string describeShape(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// numpy's broadcast of `shapes`, or an error naming them.
std::vector<std::int64_t> broadcastShape(const std::vector<std::vector<std::int64_t>>& shapes,
                                         const std::string& ufunc) {
  size_t rank = 0;
  for (const auto& s : shapes)
    rank = std::max(rank, s.size());
  std::vector<std::int64_t> out(rank, 1);
  for (const auto& s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      std::int64_t& o = out[rank - s.size() + i];
      const std::int64_t e = s[i];
      if (e == o || e == 1)
        continue;
      if (o == 1) {
        o = e;
        continue;
      }
      std::string all;
      for (const auto& t : shapes)
        all += (all.empty() ? "" : " ") + describeShape(t);
      throw Error(ErrorKind::InvalidArgument, "ufunc `" + ufunc +
                                                  "`: operands could not be broadcast together "
                                                  "with shapes " +
                                                  all);
    }
  return out;
}

// numpy's can_cast(from, to, 'safe') for the dtypes pyk has.
bool safeCast(Dtype from, Dtype to) {
  if (from == to || from == Dtype::Bool)
    return true;
  auto isSigned = [](Dtype d) {
    return d == Dtype::Int8 || d == Dtype::Int16 || d == Dtype::Int32 || d == Dtype::Int64;
  };
  auto isUnsigned = [](Dtype d) {
    return d == Dtype::UInt8 || d == Dtype::UInt16 || d == Dtype::UInt32 || d == Dtype::UInt64;
  };
  auto isFloat = [](Dtype d) {
    return d == Dtype::Float16 || d == Dtype::Float32 || d == Dtype::Float64;
  };
  const std::size_t f = dtypeItemsize(from), t = dtypeItemsize(to);
  if (isSigned(from))
    return (isSigned(to) && t >= f) || (isFloat(to) && t > f) || (isComplexDtype(to) && t / 2 > f);
  if (isUnsigned(from))
    return (isUnsigned(to) && t >= f) || (isSigned(to) && t > f) || (isFloat(to) && t > f) ||
           (isComplexDtype(to) && t / 2 > f);
  if (isFloat(from))
    return (isFloat(to) && t >= f) || (isComplexDtype(to) && t / 2 >= f);
  if (isComplexDtype(from))
    return isComplexDtype(to) && t >= f;
  return false;
}

// `bytes` of `count` elements of `from` converted to `to`, element by element as numba converts.
std::vector<std::byte> convertElements(const std::byte* bytes, std::int64_t count, Dtype from,
                                       Dtype to) {
  std::vector<std::byte> out(static_cast<std::size_t>(count) * dtypeItemsize(to));
  const ScalarKind kind = detail::scalarKindOf(to);
  for (std::int64_t i = 0; i < count; ++i) {
    KernelArgument a;
    a.dtype = from;
    std::memcpy(a.value, bytes + i * static_cast<std::int64_t>(dtypeItemsize(from)),
                dtypeItemsize(from));
    unsigned char converted[16];
    detail::convertScalar(a, kind, converted);
    std::memcpy(out.data() + i * static_cast<std::int64_t>(dtypeItemsize(to)), converted,
                dtypeItemsize(to));
  }
  return out;
}

// The view of `a` broadcast to `shape`: missing leading dimensions and extents of 1 stride 0.
AnyDeviceArray broadcastTo(const AnyDeviceArray& a, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 0);
  const size_t offset = shape.size() - static_cast<size_t>(a.ndim());
  for (int d = 0; d < a.ndim(); ++d)
    strides[offset + d] = a.shape()[d] == shape[offset + d] ? a.strides()[d] : 0;
  return detail::ArrayAccess::restride(a, shape, strides);
}

// The one stride that walks `a`'s elements in C order, if there is one.
std::optional<std::int64_t> collapsedStride(const AnyDeviceArray& a) {
  std::optional<std::int64_t> stride;
  std::int64_t inner = 0; // the elements one step of the previous (outer) dimension covers
  for (int d = a.ndim() - 1; d >= 0; --d) {
    const std::int64_t e = a.shape()[d];
    if (e == 1)
      continue;
    if (!stride) {
      stride = a.strides()[d];
      inner = e;
      continue;
    }
    if (a.strides()[d] != *stride * inner)
      return std::nullopt;
    inner *= e;
  }
  return stride.value_or(static_cast<std::int64_t>(a.itemsize()));
}

} // namespace

UfuncResult Kernel::call(std::span<const UfuncOperand> operands, const Stream& stream,
                         const AnyDeviceArray* out) const {
  const sema::CompiledFunction& f = *state_->function;
  const std::string where = state_->module->file.path() + ": ";
  if (f.kind != sema::CompiledFunctionKind::Vectorize)
    throw Error(ErrorKind::InvalidArgument,
                where + "`" + f.name + "` is a " + sema::nameOf(f.kind) +
                    (f.kind == sema::CompiledFunctionKind::Kernel
                         ? ", not a ufunc: launch it with kernel[grid, block](...)"
                         : ", not a @vectorize ufunc; calling it from the host is not supported "
                           "yet"));
  if (operands.size() != f.scope.params.size())
    throw Error(ErrorKind::InvalidArgument, where + "the ufunc `" + f.name + "` takes " +
                                                std::to_string(f.scope.params.size()) +
                                                " operands; " + std::to_string(operands.size()) +
                                                " given");
  // The backend: the CPU for target='cpu'|'parallel', else the device operands' (one), else the
  // current one.
  const bool cpuTarget = f.options.target == "cpu" || f.options.target == "parallel";
  std::optional<Backend> backend;
  bool anyDevice = false;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].kind != UfuncOperand::Kind::Device)
      continue;
    anyDevice = true;
    const Backend b = operands[i].device->backend();
    if (backend && *backend != b)
      throw Error(ErrorKind::InvalidArgument,
                  where + "the ufunc `" + f.name + "` has device operands on different backends");
    backend = b;
  }
  if (!backend)
    backend = cpuTarget ? Backend::Cpu : currentBackend();
  if (cpuTarget && *backend != Backend::Cpu)
    throw Error(ErrorKind::InvalidArgument,
                where + "the ufunc `" + f.name + "` has target='" + f.options.target +
                    "': give it host arrays or CPU-backend arrays, not CUDA device arrays");

  // The signature: exact input dtypes first, else a safe cast of the host operands.
  std::vector<Dtype> dtypes;
  for (const UfuncOperand& o : operands)
    dtypes.push_back(o.kind == UfuncOperand::Kind::Host     ? o.host->dtype
                     : o.kind == UfuncOperand::Kind::Device ? o.device->dtype()
                                                            : o.scalar.dtype);
  const sema::FunctionSignature* chosen = nullptr;
  for (int pass = 0; pass < 2 && chosen == nullptr; ++pass)
    for (const sema::FunctionSignature& s : f.signatures) {
      if (s.params.size() != operands.size() || !s.returnType || !s.returnType->isScalar())
        continue;
      bool ok = true;
      for (size_t i = 0; i < operands.size() && ok; ++i) {
        const std::optional<Dtype> want = detail::dtypeOfKind(s.params[i].scalarKind());
        ok = want &&
             (*want == dtypes[i] || (pass == 1 && operands[i].kind != UfuncOperand::Kind::Device &&
                                     safeCast(dtypes[i], *want)));
      }
      if (ok) {
        chosen = &s;
        break;
      }
    }
  if (chosen == nullptr) {
    std::string given, known;
    for (size_t i = 0; i < dtypes.size(); ++i)
      given += (i ? ", " : "") + std::string(dtypeName(dtypes[i]));
    for (const sema::FunctionSignature& s : f.signatures)
      known += "\n  " + s.spelling();
    throw Error(ErrorKind::InvalidArgument,
                where + "no signature of the ufunc `" + f.name + "` takes (" + given +
                    ") (device arrays are never converted); it has:" + known);
  }
  const Dtype resultDtype = *detail::dtypeOfKind(chosen->returnType->scalarKind());

  // Every operand as an array on the backend, in its own shape (a scalar is 0-d).
  std::vector<AnyDeviceArray> arrays;
  std::vector<std::vector<std::int64_t>> shapes;
  for (size_t i = 0; i < operands.size(); ++i) {
    const UfuncOperand& o = operands[i];
    const Dtype want = *detail::dtypeOfKind(chosen->params[i].scalarKind());
    if (o.kind == UfuncOperand::Kind::Device) {
      arrays.push_back(*o.device);
      shapes.push_back(o.device->shape());
      continue;
    }
    std::vector<std::int64_t> shape;
    std::vector<std::byte> bytes;
    if (o.kind == UfuncOperand::Kind::Host) {
      if (!o.host->isConsistent())
        throw Error(ErrorKind::InvalidArgument,
                    where + "operand " + std::to_string(i) + " of the ufunc `" + f.name +
                        "`: the host array's size does not match its dtype and shape");
      shape = o.host->shape;
      bytes = dtypes[i] == want
                  ? o.host->bytes
                  : convertElements(o.host->bytes.data(), o.host->elementCount(), dtypes[i], want);
    } else {
      bytes =
          convertElements(reinterpret_cast<const std::byte*>(o.scalar.value), 1, dtypes[i], want);
    }
    AnyDeviceArray a = detail::ArrayAccess::allocate(
        *backend, want,
        {std::max<std::int64_t>(1,
                                o.kind == UfuncOperand::Kind::Host ? o.host->elementCount() : 1)});
    a.copy_from_host(bytes.data(), bytes.size(), stream);
    shapes.push_back(shape);
    // Reshaped to the operand's own shape (a 0-d operand stays one element, broadcast below).
    arrays.push_back(shape.empty() ? a : a.reshape(shape));
  }
  const std::vector<std::int64_t> shape = broadcastShape(shapes, f.name);
  std::int64_t count = 1;
  for (std::int64_t e : shape)
    count *= e;

  // The output.
  AnyDeviceArray result;
  if (out != nullptr) {
    if (out->backend() != *backend || out->dtype() != resultDtype ||
        (out->shape() != shape && !(shape.empty() && out->size() == 1)))
      throw Error(ErrorKind::InvalidArgument,
                  where + "the output of the ufunc `" + f.name + "` must be a " +
                      std::string(dtypeName(resultDtype)) + " array of shape " +
                      describeShape(shape) + " on the " + backendName(*backend) + " backend");
    result = *out;
  } else {
    result = detail::ArrayAccess::allocate(*backend, resultDtype,
                                           shape.empty() ? std::vector<std::int64_t>{1} : shape);
  }

  if (count > 0) {
    // Each operand as a 1-D view of its broadcast elements.
    const std::vector<std::int64_t> flat = {count};
    std::vector<AnyDeviceArray> views;
    for (AnyDeviceArray& a : arrays) {
      AnyDeviceArray b = shape.empty() ? a : broadcastTo(a, shape);
      std::optional<std::int64_t> stride = collapsedStride(b);
      if (!stride) {
        b = detail::contiguousCopy(b, stream);
        stride = static_cast<std::int64_t>(b.itemsize());
      }
      views.push_back(detail::ArrayAccess::restride(b, flat, {*stride}));
    }
    AnyDeviceArray target = result;
    std::optional<std::int64_t> outStride = collapsedStride(target);
    AnyDeviceArray staging;
    if (!outStride) { // a strided `out`: computed contiguous, then copied into it
      staging = detail::ArrayAccess::allocate(*backend, resultDtype, result.shape());
      target = staging;
      outStride = static_cast<std::int64_t>(target.itemsize());
    }
    views.push_back(detail::ArrayAccess::restride(target, flat, {*outStride}));
    std::vector<KernelArgument> args;
    for (const AnyDeviceArray& v : views)
      args.push_back(KernelArgument::of(v));
    const std::int64_t threads = 256;
    launchWith({Dim3((count + threads - 1) / threads), Dim3(threads)}, 0, args, stream);
    if (!staging.empty())
      result.copy_from_device(staging, stream);
  }

  UfuncResult r;
  r.onHost = !anyDevice && out == nullptr;
  if (r.onHost) {
    r.host = result.copy_to_host();
    r.host.shape = shape; // a 0-d result is a 0-d host array
  } else {
    r.device = result;
  }
  return r;
}

} // namespace pyk
