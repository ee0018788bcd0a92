// TypeUfuncs: numpy's ufuncs in kernels, typed as numba types them (numba's Numpy_rules_ufunc):
// the operands numbers, booleans or arrays of them, then optionally one output array; numba's loop
// for the operands' types (sema/catalog/Ufunc.h, numpy's loop order). All scalars and no output:
// the loop's output type (`np.sin(x)` of a float32 is float32, of an int32 float64). With an output
// array: that array, which the call fills (broadcasting each operand to its shape) and returns.
// Arrays without an output would allocate the result, which numba.cuda kernels cannot.
#include "sema/catalog/Ufunc.h"
#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::ufuncCall(const IntrinsicInfo& info, const ast::Call* c,
                                 const std::vector<NumbaType>& args) {
  const std::string name(info.name);
  if (!c->keywords.empty()) {
    // numba 0.56 and numba-cuda alike: "unsupported keyword arguments when calling
    // Function(<ufunc ...>)".
    error(DiagKind::TypeUfuncKeyword, c->keywords[0].range, {c->keywords[0].arg, name});
    return std::nullopt;
  }
  if (!info.acceptsArgumentCount(args.size()))
    return badArguments(info.name, c, args);
  const size_t inputCount = static_cast<size_t>(info.minArgs);
  std::vector<ScalarKind> inputs, outputs;
  int rank = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const NumbaType& a = args[i];
    const bool isOutput = i >= inputCount;
    const bool numeric = a.isScalar() || a.isNumericArray();
    if (isOutput && !a.isArray()) {
      error(DiagKind::TypeUfuncOutput, c->args[i]->range, {name, std::to_string(i + 1), a.str()});
      return std::nullopt;
    }
    if (!numeric) {
      error(DiagKind::TypeUfuncOperand, c->args[i]->range,
            {name, std::to_string(i + 1), "`" + a.str() + "`"});
      return std::nullopt;
    }
    if (a.scalarKind() == ScalarKind::Float16) {
      error(DiagKind::TypeNotSupported, c->args[i]->range, {"a float16 operand of `" + name + "`"});
      return std::nullopt;
    }
    if (isOutput && a.readonly()) {
      error(DiagKind::TypeNotSupported, c->args[i]->range,
            {"writing `" + name + "`'s result into the read-only `" + a.str() + "`"});
      return std::nullopt;
    }
    (isOutput ? outputs : inputs).push_back(a.scalarKind());
    if (!isOutput && a.isArray())
      rank = std::max(rank, a.ndim());
  }
  const std::optional<UfuncLoop> loop = matchUfuncLoop(info.id, inputs, outputs);
  if (!loop) {
    std::vector<NumbaType> shown(args.begin(), args.end());
    error(DiagKind::TypeUfuncNoLoop, c->range, {name, typeList(shown)});
    return std::nullopt;
  }
  if (!loop->lowered) {
    error(DiagKind::TypeNotSupported, c->range,
          {"`" + name + "`'s loop " + ufuncLoopText(*loop) + " (numba-cuda has no kernel for it)"});
    return std::nullopt;
  }
  if (!loop->compiled) {
    error(DiagKind::TypeNotSupported, c->range,
          {"`" + name + "`'s loop " + ufuncLoopText(*loop) +
           " (numba-cuda compiles it; pyk has this ufunc's real and integer loops)"});
    return std::nullopt;
  }
  if (outputs.empty()) {
    if (rank > 0) {
      error(DiagKind::TypeUfuncAllocates, c->range, {name});
      return std::nullopt;
    }
    return NumbaType::scalar(loop->output);
  }
  const NumbaType& out = args.back();
  for (size_t i = 0; i < inputCount; ++i)
    if (args[i].isArray() && args[i].ndim() > out.ndim()) {
      error(DiagKind::TypeUfuncRank, c->args[i]->range,
            {name, std::to_string(i + 1), std::to_string(args[i].ndim()),
             std::to_string(out.ndim())});
      return std::nullopt;
    }
  return out;
}

} // namespace pyk::sema
