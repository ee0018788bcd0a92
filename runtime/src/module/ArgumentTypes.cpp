// ArgumentTypes: numba's typeof of C++ arguments, and their packed signature.
#include "module/ArgumentTypes.h"

#include "module/ScalarConversion.h"
#include "pyk/record.hpp"

namespace pyk::detail {

using sema::ArrayLayout;
using sema::NumbaType;

namespace {

// numba's Record type of a structured dtype.
NumbaType recordTypeOf(const RecordDtype& record) {
  sema::RecordLayout layout;
  for (const RecordField& f : record.fields())
    layout.fields.push_back({f.name, scalarKindOf(f.dtype), f.offset});
  layout.size = record.itemsize();
  layout.aligned = record.aligned();
  return NumbaType::record(std::move(layout));
}

} // namespace

ArrayLayout layoutOf(const AnyDeviceArray& a) {
  auto contiguous = [&](bool c) {
    std::int64_t expected = static_cast<std::int64_t>(a.itemsize());
    for (int i = 0; i < a.ndim(); ++i) {
      const int d = c ? a.ndim() - 1 - i : i;
      if (a.shape()[d] != 1 && a.strides()[d] != expected)
        return false;
      expected *= a.shape()[d];
    }
    return true;
  };
  if (contiguous(true))
    return ArrayLayout::C;
  if (contiguous(false))
    return ArrayLayout::F;
  return ArrayLayout::A;
}

NumbaType typeOf(const KernelArgument& a) {
  if (a.kind == KernelArgument::Kind::Array && a.array->record() != nullptr)
    return NumbaType::recordArray(recordTypeOf(*a.array->record()), a.array->ndim(),
                                  layoutOf(*a.array));
  if (a.kind == KernelArgument::Kind::Array)
    return NumbaType::array(scalarKindOf(a.dtype), a.array->ndim(), layoutOf(*a.array));
  return NumbaType::scalar(scalarKindOf(a.dtype));
}

std::vector<NumbaType> typesOf(std::span<const KernelArgument> args) {
  std::vector<NumbaType> types;
  for (const KernelArgument& a : args)
    types.push_back(typeOf(a));
  return types;
}

std::string describeTypes(const std::vector<NumbaType>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i)
    out += (i ? ", " : "") + types[i].str();
  return out + ")";
}

bool packSignature(std::span<const KernelArgument> args, ArgumentSignature& out) {
  if (args.size() > static_cast<size_t>(ArgumentSignature::kMaxArguments))
    return false;
  for (const KernelArgument& a : args)
    if (a.kind == KernelArgument::Kind::Array && a.array->record() != nullptr)
      return false;
  out.count = static_cast<int>(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& a = args[i];
    std::uint16_t code = static_cast<std::uint16_t>(static_cast<unsigned>(a.dtype) << 1);
    if (a.kind == KernelArgument::Kind::Array)
      code |= static_cast<std::uint16_t>(1u | static_cast<unsigned>(a.array->ndim()) << 6 |
                                         static_cast<unsigned>(layoutOf(*a.array)) << 10);
    out.codes[i] = code;
  }
  return true;
}

} // namespace pyk::detail
