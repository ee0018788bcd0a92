// SignatureChoice: numba's overload resolution over declared signatures.
#include "sema/typing/SignatureChoice.h"

#include <algorithm>

#include "sema/typing/TypeRuleCases.h"

namespace pyk::sema {

namespace {

using type_rules::Conversion;

// The conversion an argument needs: numba's lattice between numbers; Exact for the same type,
// Safe for a container converted (an array to layout A or read-only); None when it cannot.
Conversion conversionOf(const NumbaType& arg, const NumbaType& param, ContainerConverts converts) {
  if (arg == param)
    return Conversion::Exact;
  // numba's Optional.can_convert_to: into an Optional, as its value converts; into its value's
  // type (or one that converts), at least a safe conversion (checked: None is a TypeError).
  if (arg.isOptional()) {
    if (param.isOptional())
      return conversionOf(arg.optionalValue(), param.optionalValue(), converts);
    const Conversion c = conversionOf(arg.optionalValue(), param, converts);
    return c == Conversion::None ? c : std::max(c, Conversion::Safe);
  }
  if (arg.isScalar() && param.isScalar())
    return type_rules::conversion(arg.scalarKind(), param.scalarKind());
  if (arg.isTuple() && param.isTuple()) {
    if (arg.elements().size() != param.elements().size())
      return Conversion::None;
    Conversion worst = Conversion::Exact;
    for (size_t i = 0; i < arg.elements().size(); ++i)
      worst = std::max(worst, conversionOf(arg.elements()[i], param.elements()[i], converts));
    return worst;
  }
  return converts(arg, param) ? Conversion::Safe : Conversion::None;
}

} // namespace

bool argumentConverts(const NumbaType& arg, const NumbaType& param) {
  if (arg == param || (arg.isScalar() && param.isScalar()))
    return true;
  if (arg.isRecord() && param.isRecord())
    return arg.recordLayout() == param.recordLayout();
  if (arg.isTuple() && param.isTuple()) {
    if (arg.elements().size() != param.elements().size())
      return false;
    for (size_t i = 0; i < arg.elements().size(); ++i)
      if (!argumentConverts(arg.elements()[i], param.elements()[i]))
        return false;
    return true;
  }
  return arg.isArray() && param.isArray() && arg.elementType() == param.elementType() &&
         arg.ndim() == param.ndim() &&
         (param.layout() == ArrayLayout::A || param.layout() == arg.layout()) &&
         (param.readonly() || !arg.readonly());
}

std::optional<size_t> chooseSignature(std::span<const FunctionSignature> signatures,
                                      std::span<const NumbaType> args, ContainerConverts converts) {
  std::optional<size_t> best;
  type_rules::ConversionRating bestRating;
  for (size_t s = 0; s < signatures.size(); ++s) {
    const std::vector<NumbaType>& params = signatures[s].params;
    if (params.size() != args.size())
      continue;
    type_rules::ConversionRating rating;
    bool viable = true;
    for (size_t i = 0; i < args.size() && viable; ++i)
      viable = rating.add(conversionOf(args[i], params[i], converts));
    if (viable && (!best || rating < bestRating)) {
      best = s;
      bestRating = rating;
    }
  }
  return best;
}

} // namespace pyk::sema
