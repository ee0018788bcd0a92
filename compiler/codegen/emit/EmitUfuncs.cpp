// EmitUfuncs: numpy's ufuncs as C++ — the loop numba chooses for the operands' types
// (sema::matchUfuncLoop, as typing chose it) applied by stdlib/common/numpy_ufuncs.h: on scalars
// `pyk::npy::ufunc_scalar<Out, In...>(pyk::npy::sin_loop{}, x)`, into an output array
// `pyk::npy::ufunc_arrays<Out, In...>(pyk::npy::sin_loop{}, out, x)`, which returns the array.
#include "codegen/emit/UnitEmitter.h"
#include "sema/catalog/Ufunc.h"

namespace pyk::codegen {

std::string UnitEmitter::ufuncCall(const ir::IntrinsicCall* c) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(c->intrinsic);
  const size_t inputCount = static_cast<size_t>(info.minArgs);
  std::vector<ScalarKind> inputs, outputs;
  for (size_t i = 0; i < c->args.size(); ++i)
    (i < inputCount ? inputs : outputs).push_back(c->args[i]->type.scalarKind());
  const std::optional<sema::UfuncLoop> loop = sema::matchUfuncLoop(c->intrinsic, inputs, outputs);
  if (!loop) { // typing chose one for the same types
    unsupported(c->range, "`" + std::string(info.name) + "` of these operands");
    return "0";
  }
  std::string types = type(NumbaType::scalar(loop->output));
  for (ScalarKind k : loop->inputs)
    types += ", " + type(NumbaType::scalar(k));
  const bool intoArray = !outputs.empty();
  std::string out = std::string(intoArray ? "pyk::npy::ufunc_arrays<" : "pyk::npy::ufunc_scalar<") +
                    types + ">(" + spelled(c->intrinsic) + "{}";
  if (intoArray)
    out += ", " + expr(c->args.back());
  for (size_t i = 0; i < inputCount; ++i)
    out += ", " + expr(c->args[i]);
  return out + ")";
}

} // namespace pyk::codegen
