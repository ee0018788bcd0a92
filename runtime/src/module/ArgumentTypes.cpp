// ArgumentTypes: numba's typeof of C++ arguments, and their packed signature.
#include "module/ArgumentTypes.h"

#include "module/ScalarConversion.h"
#include "pyk/device.hpp"
#include "pyk/error.hpp"
#include "pyk/record.hpp"

namespace pyk::detail {

using types::ArrayLayout;
using types::NumbaType;

namespace {

types::RecordLayout recordLayoutOf(const RecordDtype& record) {
  types::RecordLayout layout;
  for (const RecordField& f : record.fields()) {
    types::RecordField field;
    field.name = f.name;
    field.offset = f.offset;
    field.shape = f.shape;
    if (f.chars != FieldChars::None) {
      field.kind =
          f.chars == FieldChars::Bytes ? types::FieldKind::Bytes : types::FieldKind::Unicode;
      field.length = f.length;
    } else if (f.record != nullptr) {
      field.kind = types::FieldKind::Record;
      field.record = std::make_shared<const types::RecordLayout>(recordLayoutOf(*f.record));
    } else {
      field.type = scalarKindOf(f.dtype);
    }
    layout.fields.push_back(std::move(field));
  }
  layout.size = record.itemsize();
  layout.aligned = record.aligned();
  return layout;
}

} // namespace

NumbaType recordTypeOf(const RecordDtype& record) {
  return NumbaType::record(recordLayoutOf(record));
}

} // namespace pyk::detail

namespace pyk {

KernelArgument KernelArgument::record(const AnyDeviceArray& records) {
  if (records.record() == nullptr || records.size() != 1)
    throw Error(ErrorKind::InvalidArgument,
                "a record argument is one record: an array of one item of a structured dtype, "
                "not " +
                    (records.record() == nullptr
                         ? std::string("an array of ") + std::string(dtype_name(records.dtype()))
                         : "an array of " + std::to_string(records.size()) + " records"));
  KernelArgument k;
  k.kind = Kind::Record;
  k.dtype = Dtype::Record;
  k.array = &records;
  return k;
}

KernelArgument KernelArgument::pointer_to(const AnyDeviceArray& a) {
  if (a.record() != nullptr || is_character_dtype(a.dtype()) || is_datetime_dtype(a.dtype()) ||
      is_timedelta_dtype(a.dtype()))
    throw Error(ErrorKind::InvalidArgument,
                "a pointer argument (numba's CPointer) points to numbers or booleans, not to the "
                "items of an array of " +
                    std::string(dtype_name(a.dtype())));
  KernelArgument k;
  k.kind = Kind::Pointer;
  k.dtype = a.dtype();
  k.array = &a;
  return k;
}

KernelArgument KernelArgument::tuple_of(std::vector<KernelArgument> elements,
                                        std::string class_name,
                                        std::vector<std::string> field_names) {
  if (!class_name.empty() && field_names.size() != elements.size())
    throw Error(ErrorKind::InvalidArgument,
                "the named tuple `" + class_name + "` has " + std::to_string(field_names.size()) +
                    " field names for " + std::to_string(elements.size()) + " elements");
  KernelArgument k;
  k.kind = Kind::Tuple;
  k.tuple = std::make_shared<const TupleArgument>(
      TupleArgument{std::move(elements), std::move(class_name), std::move(field_names)});
  return k;
}

} // namespace pyk

namespace pyk::detail {

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
  if (a.kind == KernelArgument::Kind::EnumMember) {
    NumbaType value = NumbaType::scalar(scalarKindOf(a.dtype));
    if (a.tuple != nullptr) { // valued by a tuple: its type as a tuple argument's
      KernelArgument tuple = a;
      tuple.kind = KernelArgument::Kind::Tuple;
      value = typeOf(tuple);
    }
    return NumbaType::enumMember(a.member->class_name, value, a.member->int_enum);
  }
  if (a.kind == KernelArgument::Kind::Record)
    return recordTypeOf(*a.array->record());
  if (a.kind == KernelArgument::Kind::Pointer) // numba's typeof of ffi.from_buffer(a)
    return NumbaType::pointer(scalarKindOf(a.dtype));
  if (a.kind == KernelArgument::Kind::Tuple) {
    // numba's typeof: a UniTuple when the elements have one type, else a Tuple; a named tuple
    // keeps its class and fields.
    std::vector<NumbaType> elements;
    for (const KernelArgument& e : a.tuple->elements)
      elements.push_back(typeOf(e));
    if (!a.tuple->class_name.empty())
      return NumbaType::namedTuple(std::move(elements), a.tuple->class_name, a.tuple->field_names);
    bool uniform = !elements.empty();
    for (const NumbaType& e : elements)
      uniform = uniform && e == elements[0];
    return uniform ? NumbaType::uniTuple(elements[0], static_cast<int>(elements.size()))
                   : NumbaType::tuple(std::move(elements));
  }
  if (a.kind == KernelArgument::Kind::Array && a.array->record() != nullptr)
    return NumbaType::recordArray(recordTypeOf(*a.array->record()), a.array->ndim(),
                                  layoutOf(*a.array));
  if (a.kind == KernelArgument::Kind::Array && is_character_dtype(a.dtype)) // numba's CharSeq
    return NumbaType::arrayOf(NumbaType::charSeq(a.array->chars(), a.dtype == Dtype::Unicode),
                              a.array->ndim(), layoutOf(*a.array));
  if (a.kind == KernelArgument::Kind::Array)
    return NumbaType::arrayOf(valueTypeOf(a.dtype), a.array->ndim(), layoutOf(*a.array));
  return valueTypeOf(a.dtype);
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

std::string describeCall(const std::string& kernel, const std::vector<NumbaType>& params) {
  std::string out = kernel + "(";
  for (size_t i = 0; i < params.size(); ++i)
    out += (i ? ", " : "") + params[i].spelling();
  return out + ")";
}

namespace {

// One argument's packed code: bit 0 an array; bits 1-4 its rank, 5-6 its layout; bits 7-15 the
// dtype.
std::uint16_t signatureCode(const KernelArgument& a) {
  static_assert(static_cast<unsigned>(Dtype::Record) < (1u << 9), "the dtype fits in 9 bits");
  std::uint16_t code = static_cast<std::uint16_t>(static_cast<unsigned>(a.dtype) << 7);
  if (a.kind == KernelArgument::Kind::Array)
    code |= static_cast<std::uint16_t>(1u | static_cast<unsigned>(a.array->ndim()) << 1 |
                                       static_cast<unsigned>(layoutOfArgument(*a.array)) << 5);
  return code;
}

// Whether the code can stand for `a`'s type.
bool packable(const KernelArgument& a) {
  switch (a.kind) {
  case KernelArgument::Kind::Scalar:
    return true;
  case KernelArgument::Kind::Array: // an array of records or characters: its layout is not held
    return a.dtype != Dtype::Record && !is_character_dtype(a.dtype);
  default: // a record, a tuple, an enum member (a type of its class), a pointer
    return false;
  }
}

void setCode(ArgumentSignature& s, std::size_t i, std::uint16_t code) {
  (i < ArgumentSignature::kInline ? s.codes[i] : s.more[i - ArgumentSignature::kInline]) = code;
}

} // namespace

ArgumentScan scanArguments(const std::string& kernel, std::span<const KernelArgument> args,
                           ArgumentSignature& signature) {
  ArgumentScan scan;
  scan.packed = true;
  sizeSignature(signature, args.size());
  const AnyDeviceArray* first = nullptr;
  std::size_t i = 0;
  auto visit = [&](const AnyDeviceArray& array) __attribute__((always_inline)) {
    if (array.empty())
      throw Error(ErrorKind::InvalidArgument, "kernel `" + kernel + "`: argument " +
                                                  std::to_string(i) +
                                                  " is an empty (default-constructed) array");
    if (first == nullptr) {
      first = &array;
      scan.hasArrays = true;
    } else if (array.backend() != first->backend())
      throw Error(ErrorKind::InvalidArgument,
                  "kernel `" + kernel + "`: argument " + std::to_string(i) +
                      " is an array on the " + backend_name(array.backend()) +
                      " backend, but an earlier one is on the " + backend_name(first->backend()) +
                      " backend; a launch runs where all its arrays are");
    if (array.memory_kind() != MemoryKind::Managed) {
      const int device = array.device_id();
      scan.arraysDevice = scan.arraysDevice == -1 || scan.arraysDevice == device ? device : -2;
    }
    scan.fitsIndex32 = scan.fitsIndex32 && arrayFitsIndex32(array);
  };
  for (; i < args.size(); ++i) {
    const KernelArgument& a = args[i];
    if (a.kind == KernelArgument::Kind::Array)
      visit(*a.array);
    else if (a.kind != KernelArgument::Kind::Scalar)
      forEachArrayOf(a, visit);
    if (scan.packed && packable(a))
      setCode(signature, i, signatureCode(a));
    else
      scan.packed = false;
  }
  scan.backend = first != nullptr ? first->backend() : current_backend();
  return scan;
}

bool packSignature(std::span<const KernelArgument> args, ArgumentSignature& out) {
  for (const KernelArgument& a : args)
    if (!packable(a))
      return false;
  sizeSignature(out, args.size());
  for (std::size_t i = 0; i < args.size(); ++i)
    setCode(out, i, signatureCode(args[i]));
  return true;
}

} // namespace pyk::detail
