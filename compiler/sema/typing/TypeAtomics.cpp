// TypeAtomics: typing of `cuda.atomic.*` — (array, index, value...) returning the element type,
// the old value: add/sub/max/min/nanmax/nanmin on 32- and 64-bit integers and floats,
// and_/or_/xor/exch/cas on integers, inc/dec on uint32/uint64, compare_and_swap on element 0 —
// and of numba-cuda's cache-hint loads and stores, addressed the same way.
#include <algorithm>

#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::atomic(const IntrinsicInfo& info, const ast::Call* c,
                              const std::vector<NumbaType>& args) {
  auto bad = [&] { return badArguments(info.name, c, args); };
  const bool indexed = info.typing != IntrinsicTyping::AtomicCompareAndSwap;
  const size_t valueCount = info.typing == IntrinsicTyping::AtomicCas ||
                                    info.typing == IntrinsicTyping::AtomicCompareAndSwap
                                ? 2
                                : 1;
  if (args.size() != (indexed ? 2 : 1) + valueCount)
    return bad();
  const NumbaType& array = args[0];
  if (!array.isArray() || array.readonly())
    return bad();
  if (indexed) {
    // numba converts the index of a 1-D array, and each of a tuple's, to intp: any real scalar
    // (a float is truncated), as its lowering casts them.
    auto real = [](const NumbaType& t) { return t.isScalar() && !isComplex(t.scalarKind()); };
    const NumbaType& index = args[1];
    const bool okIndex =
        (array.ndim() == 1 && real(index)) ||
        (index.isTuple() && static_cast<int>(index.elements().size()) == array.ndim() &&
         std::all_of(index.elements().begin(), index.elements().end(), real));
    if (!okIndex)
      return bad();
  }
  const ScalarKind k = array.scalarKind();
  const bool integer = isInteger(k) && bitWidth(k) >= 32;
  const bool floating = k == ScalarKind::Float32 || k == ScalarKind::Float64;
  bool ok = false;
  switch (info.typing) {
  case IntrinsicTyping::AtomicArithmetic:
    ok = integer || floating;
    break;
  case IntrinsicTyping::AtomicBitwise:
  case IntrinsicTyping::AtomicCas:
  case IntrinsicTyping::AtomicCompareAndSwap:
    ok = integer;
    break;
  case IntrinsicTyping::AtomicIncDec:
    ok = k == ScalarKind::UInt32 || k == ScalarKind::UInt64;
    break;
  default:
    break;
  }
  for (size_t i = args.size() - valueCount; i < args.size(); ++i)
    ok = ok && args[i].isScalar();
  return ok ? OptType(NumbaType::scalar(k)) : bad();
}

// numba-cuda's cache_hints: an array of integers or floats (8 to 64 bits; not booleans), indexed
// by an integer (1-D) or a tuple of one integer per dimension (numba's _validate_arguments and
// _validate_bitwidth); a load returns the element, a store converts its value to the element's
// type and returns none. A CPointer takes one integer index.
OptType FunctionTyper::cacheHint(const IntrinsicInfo& info, const ast::Call* c,
                                 const std::vector<NumbaType>& args) {
  const bool store = info.typing == IntrinsicTyping::CacheHintStore;
  if (args.size() != (store ? 3u : 2u) || !(args[0].isNumericArray() || args[0].isPointer()))
    return badArguments(info.name, c, args);
  const NumbaType& array = args[0];
  const ScalarKind k = array.scalarKind();
  auto integer = [](const NumbaType& t) { return t.isScalar() && isInteger(t.scalarKind()); };
  const NumbaType& index = args[1];
  // A pointer takes one integer index ("Pointers only support scalar indexing").
  const bool okIndex =
      ((array.isPointer() || array.ndim() == 1) && integer(index)) ||
      (index.isTuple() && static_cast<int>(index.elements().size()) == array.ndim() &&
       std::all_of(index.elements().begin(), index.elements().end(), integer));
  const bool okElement = isInteger(k) || isFloat(k);
  if (!okIndex || !okElement || (store && array.readonly()))
    return badArguments(info.name, c, args);
  if (!store)
    return NumbaType::scalar(k);
  if (!args[2].isScalar() || isComplex(args[2].scalarKind()))
    return badArguments(info.name, c, args);
  return NumbaType::voidType();
}

} // namespace pyk::sema
