// IntrinsicRowText: one row of the intrinsic table as docs/LANGUAGE.md describes it; the typed
// results are sampled from the rules typing itself uses (sema::callResultType).
#include "tools/IntrinsicRowText.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "sema/catalog/Ufunc.h"
#include "sema/typing/TypeRules.h"

namespace pyk::tools {

using sema::IntrinsicInfo;
using sema::IntrinsicKind;
using sema::IntrinsicTyping;
using types::ScalarKind;
namespace flags = sema::intrinsic_flags;

namespace {

// What a use of a row is typed as, in words: each typing rule once (a new rule is a compile
// warning here until it is described).
std::string ruleDescription(IntrinsicTyping typing) {
  using T = IntrinsicTyping;
  switch (typing) {
  case T::Int32Value:
    return "int32";
  case T::Float64Constant:
    return "float64";
  case T::HostConstant:
    return "a module constant only";
  case T::ArrayConstructor:
    return "a C-contiguous array of the dtype; the shape an integer constant or a tuple of them";
  case T::ConstArrayLike:
    return "a read-only copy of a module-level array, frozen into the kernel";
  case T::GridIndex:
    return "int64 for a constant 1; a tuple of 2 or 3 int64 for 2 or 3";
  case T::ThisGrid:
    return "the grid group; its `.sync()` waits for every thread of the grid";
  case T::Void:
    return "none";
  case T::BarrierPredicate:
    return "int32";
  case T::AtomicArithmetic:
    return "the old value; arrays of 32- and 64-bit integers, float32, float64";
  case T::AtomicBitwise:
  case T::AtomicCas:
    return "the old value; arrays of 32- and 64-bit integers";
  case T::AtomicIncDec:
    return "the old value; arrays of uint32, uint64";
  case T::AtomicCompareAndSwap:
    return "the old value of element 0; arrays of 32- and 64-bit integers";
  case T::CacheHintLoad:
    return "(array, index) -> the element, loaded with the cache hint (`ld.global.<hint>`); "
           "arrays of integers and floats";
  case T::CacheHintStore:
    return "(array, index, value) -> none, the value stored with the cache hint "
           "(`st.global.<hint>`); arrays of integers and floats";
  case T::LaneMask:
    return "uint32";
  case T::Vote:
    return "boolean";
  case T::Ballot:
    return "int32";
  case T::Shuffle:
    return "the value's type: int32, int64, uint32, uint64, float32, float64";
  case T::MatchAny:
    return "int32";
  case T::MatchAll:
    return "(int32, boolean)";
  case T::BitCount:
    return "the operand's integer type";
  case T::FirstSet:
    return "uint32";
  case T::BitReverse:
    return "uint32 or uint64";
  case T::SameFloat:
    return "float32 or float64, as the arguments";
  case T::Select:
    return "the two values' type";
  case T::Half:
    return "float16";
  case T::HalfPredicate:
    return "boolean";
  case T::MathUnary:
    return "float32 for float32, else float64";
  case T::MathClassify:
  case T::CmathClassify:
    return "boolean";
  case T::MathFrexp:
    return "(float, int32)";
  case T::MathModf:
    return "(float, float)";
  case T::MathAtan2:
  case T::MathBinary:
  case T::MathPow:
  case T::MathLdexp:
    return "a float";
  case T::CmathComplex:
  case T::CmathRect:
    return "complex64 or complex128";
  case T::CmathPhase:
    return "a float";
  case T::CmathPolar:
    return "(float, float)";
  case T::Range:
    return "iterates in the integer type numba's range picks (range(int32) is int32)";
  case T::Enumerate:
    return "(int64, the element)";
  case T::Zip:
    return "a tuple of one element of each";
  case T::Len:
    return "int64, of an array or a tuple";
  case T::Print:
    return "none; prints as numba does (floats as %f)";
  case T::Abs:
  case T::MinMax:
  case T::Round:
  case T::IntCast:
  case T::FloatCast:
  case T::BoolCast:
  case T::ComplexCast:
  case T::BuiltinPow:
  case T::Divmod:
    return "as numba's typing of the builtin";
  case T::BuiltinSum:
    return "the type of every partial sum of start (0) and the items of a tuple or 1-d array";
  case T::VectorConstructor:
    return "the vector type";
  case T::TupleCopy:
    return "the empty tuple, or the tuple's own type";
  case T::RealImag:
    return "the real or imaginary part; of a complex array, a float view of it";
  case T::BufferPointer:
    return "a CPointer to the items of a C-contiguous array (or a 1-d F one)";
  case T::OperatorFunction:
    return "as the operator it is";
  case T::Libdevice:
    return "the function's one signature";
  case T::LibraryFunction:
    return "as its pyk source types it";
  case T::NumpyUfunc:
    return "numba's loop for the operands (numpy's loop order); into an output array: that array";
  case T::NotYetTyped:
    return "not typed yet: a call is a type error";
  }
  return "";
}

// The argument types a row's samples try, by what the row computes on.
std::vector<ScalarKind> sampleKinds(const IntrinsicInfo& row) {
  using K = ScalarKind;
  switch (row.typing) {
  case IntrinsicTyping::Half:
  case IntrinsicTyping::HalfPredicate:
    return {K::Float16};
  case IntrinsicTyping::BitCount:
  case IntrinsicTyping::FirstSet:
  case IntrinsicTyping::BitReverse:
    return {K::Int32, K::UInt32, K::Int64, K::UInt64};
  case IntrinsicTyping::NumpyUfunc:
    return {K::Boolean, K::Int32, K::Int64, K::Float32, K::Float64, K::Complex128};
  default:
    break;
  }
  if (sema::familyOf(row.typing) == sema::IntrinsicFamily::Cmath)
    return {K::Float64, K::Complex64, K::Complex128};
  return {K::Int32, K::Int64, K::Float32, K::Float64};
}

// For a function typed by numba's scalar rules (math, cmath, the numeric builtins, operator,
// numba.cuda's bit and float intrinsics, fp16): the result of a call whose arguments all have
// one type, for a few types and each argument count that types (`int64 → float64, float32 →
// float32`), from the rules typing uses. Empty where none of them types.
std::string sampledResults(const IntrinsicInfo& row) {
  if (row.kind != IntrinsicKind::Function || row.typing == IntrinsicTyping::NotYetTyped ||
      row.typing == IntrinsicTyping::Libdevice || row.typing == IntrinsicTyping::Select)
    return "";
  std::vector<std::pair<int, std::string>> byCount;
  // A ufunc's last argument may be its output array: its scalar loops take the inputs alone.
  const int upper = row.typing == IntrinsicTyping::NumpyUfunc ? row.minArgs
                    : row.maxArgs < 0                         ? std::max(row.minArgs, 2)
                                                              : row.maxArgs;
  for (int count = std::max(row.minArgs, 1); count <= upper; ++count) {
    std::string results;
    for (ScalarKind kind : sampleKinds(row)) {
      const std::vector<ScalarKind> args(static_cast<size_t>(count), kind);
      std::optional<types::NumbaType> result;
      if (row.typing == IntrinsicTyping::NumpyUfunc) { // scalars only: the loop's output
        if (count == row.minArgs)
          if (const std::optional<sema::UfuncLoop> loop = sema::matchUfuncLoop(row.id, args, {}))
            result = types::NumbaType::scalar(loop->output);
      } else {
        result = sema::callResultType(row.id, args);
      }
      if (!result)
        continue;
      results +=
          (results.empty() ? "" : ", ") + std::string(kindName(kind)) + " → " + result->str();
    }
    byCount.push_back({count, results});
  }
  const bool anyTyped = std::any_of(byCount.begin(), byCount.end(),
                                    [](const auto& group) { return !group.second.empty(); });
  if (!anyTyped)
    return "";
  if (byCount.size() == 1 && byCount[0].first == 1)
    return byCount[0].second;
  // Counts the table allows but no sample types are type errors (math.log(x, base), pow's third
  // argument), except for functions of any number of arguments.
  if (row.maxArgs < 0)
    std::erase_if(byCount, [](const auto& group) { return group.second.empty(); });
  std::string out;
  for (const auto& [count, results] : byCount)
    out += (out.empty() ? "" : "; ") + std::to_string(count) +
           (count == 1 ? " argument: " : " arguments: ") +
           (results.empty() ? "a type error" : results);
  return out;
}

} // namespace

// A markdown table cell: `|` would end it.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += '\\';
    out += c;
  }
  return out;
}

std::string code(std::string_view text) {
  return "`" + std::string(text) + "`";
}

// The shortest text that reads back as `value` (3.141592653589793, inf, nan).
std::string number(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

// The name as kernels write it after `from numba import cuda` (`cuda.syncthreads`), or the
// module's own name (`math.sin`, `numpy.sin`, `range`).
std::string writtenName(const IntrinsicInfo& row) {
  return std::string(row.shortName());
}

std::string kindOf(const IntrinsicInfo& row) {
  switch (row.kind) {
  case IntrinsicKind::Value:
    return "value";
  case IntrinsicKind::Constant:
    return "constant";
  case IntrinsicKind::Function:
    return "function";
  case IntrinsicKind::Library:
    return "device function";
  }
  return "";
}

std::string argumentCount(const IntrinsicInfo& row) {
  if (row.kind == IntrinsicKind::Value || row.kind == IntrinsicKind::Constant)
    return "—";
  if (row.maxArgs < 0)
    return std::to_string(row.minArgs) + " or more";
  if (row.minArgs == row.maxArgs)
    return std::to_string(row.minArgs);
  return std::to_string(row.minArgs) + "–" + std::to_string(row.maxArgs);
}

const char* kindName(ScalarKind kind) {
  return types::scalarName(kind);
}

std::string typedAs(const IntrinsicInfo& row) {
  if (row.typing == IntrinsicTyping::NotYetTyped)
    return "—";
  if (row.kind == IntrinsicKind::Constant)
    return "float64 " + code(number(row.value));
  const std::string sampled = sampledResults(row);
  return sampled.empty() ? ruleDescription(row.typing) : sampled;
}

// Whether kernels can use the row at all, and how a backend spells it.
std::string backendSupport(const IntrinsicInfo& row, std::string_view spelling) {
  if (row.has(flags::HostOnly))
    return "no: module constants only";
  if (row.typing == IntrinsicTyping::NotYetTyped)
    return "no: not typed yet";
  if (row.kind == IntrinsicKind::Library)
    return "yes, compiled from its pyk source";
  if (spelling.empty())
    return "yes, composed by the emitter";
  return "yes: " + code(spelling);
}

std::string notesOf(const IntrinsicInfo& row) {
  std::vector<std::string> notes;
  if (row.has(flags::BlockReduction))
    notes.push_back("block barrier with a value: the CPU backend splits there, reducing over the "
                    "block's threads between the two sides");
  else if (row.has(flags::Barrier))
    notes.push_back("block barrier");
  if (row.has(flags::WarpCollective))
    notes.push_back("warp collective: the CPU backend runs the kernel on fibers");
  if (row.has(flags::HostOnly))
    notes.push_back("numba 0.56 has no device version: folded where a module constant calls it");
  if (row.typing == IntrinsicTyping::NumpyUfunc)
    notes.push_back("a ufunc: on arrays, into the output array passed last (numpy's broadcasting; "
                    "numba.cuda kernels cannot allocate one)");
  if (row.typing == IntrinsicTyping::NotYetTyped && !row.has(flags::HostOnly))
    notes.push_back("accepted by name; a call in a kernel is a type error");
  std::string out;
  for (const std::string& n : notes)
    out += (out.empty() ? "" : "; ") + n;
  return out;
}

} // namespace pyk::tools
