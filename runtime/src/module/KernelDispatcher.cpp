// KernelDispatcher: the specialization a launch runs, chosen from its arguments' numba types and
// the kernel's signatures.
#include "module/KernelDispatcher.h"

#include "module/ArgumentTypes.h"
#include "module/ModuleState.h"
#include "module/ScalarConversion.h"

namespace pyk::detail {

using types::ArrayLayout;
using types::NumbaType;

namespace {

// Whether two records lay out the same fields in items of the same size. numba's Record also
// compares `aligned` (np.dtype(..., align=True)), which a .npy file does not keep: a record read
// back from one is the same bytes, and a signature's aligned record takes it.
bool sameRecordLayout(const types::RecordLayout& param, const types::RecordLayout& arg) {
  if (param.size != arg.size || param.fields.size() != arg.fields.size())
    return false;
  for (size_t i = 0; i < param.fields.size(); ++i) {
    const types::RecordField& p = param.fields[i];
    const types::RecordField& a = arg.fields[i];
    if (p.name != a.name || p.type != a.type || p.offset != a.offset || p.kind != a.kind ||
        p.length != a.length || p.shape != a.shape ||
        (p.record == nullptr) != (a.record == nullptr) ||
        (p.record != nullptr && !sameRecordLayout(*p.record, *a.record)))
      return false;
  }
  return true;
}

// Whether an argument of type `arg` may be passed for a parameter of type `param` (numba converts
// scalars; arrays need their dtype and rank, and a layout the parameter accepts; records their
// layout; tuples each element).
bool accepts(const NumbaType& param, const NumbaType& arg) {
  if (param.isScalar() && arg.isScalar())
    return true;
  if (param.isDatetimeLike() || arg.isDatetimeLike()) // no conversion between units or to numbers
    return param == arg;
  if (param.isRecord() && arg.isRecord())
    return sameRecordLayout(param.recordLayout(), arg.recordLayout());
  if (param.isTuple() && arg.isTuple()) {
    if (param.elements().size() != arg.elements().size())
      return false;
    for (size_t i = 0; i < param.elements().size(); ++i)
      if (!accepts(param.elements()[i], arg.elements()[i]))
        return false;
    return true;
  }
  if (param.isArray() && arg.isArray()) {
    const bool sameItem = param.isRecordArray() || arg.isRecordArray()
                              ? param.isRecordArray() && arg.isRecordArray() &&
                                    sameRecordLayout(param.recordLayout(), arg.recordLayout())
                              : param.elementType() == arg.elementType();
    return sameItem && param.ndim() == arg.ndim() &&
           (param.layout() == ArrayLayout::A || param.layout() == arg.layout());
  }
  return false;
}

std::string describeSignatures(const jit::FunctionInfo& f) {
  std::string known;
  for (const types::FunctionSignature& s : f.signatures)
    known += "\n  " + s.spelling();
  return known;
}

// A gufunc kernel takes each operand with the loop dimension first: for an array parameter of
// rank r an array of rank r + 1, for a scalar parameter a 1-D array (one value per loop index). It
// is typed by the first signature whose dtypes and ranks the arrays have.
SpecializationChoice gufuncSpecialization(const KernelState& k,
                                          const std::vector<NumbaType>& argTypes) {
  const jit::FunctionInfo& f = *k.function;
  // The file, for messages (built only when one is thrown: this runs at every launch).
  const auto where = [&k] { return k.module->path() + ": "; };
  if (argTypes.size() != f.parameterNames.size())
    throw Error(ErrorKind::InvalidArgument,
                where() + "the gufunc kernel of `" + f.name + "` takes " +
                    std::to_string(f.parameterNames.size()) + " arrays; " +
                    std::to_string(argTypes.size()) + " arguments given");
  for (size_t i = 0; i < argTypes.size(); ++i)
    if (!argTypes[i].isArray())
      throw Error(ErrorKind::InvalidArgument,
                  where() + "argument " + std::to_string(i) + " of the gufunc kernel of `" +
                      f.name +
                      "` must be an array (the loop dimension, then the core dimensions), not " +
                      argTypes[i].str());
  for (const types::FunctionSignature& s : f.signatures) {
    bool ok = s.params.size() == argTypes.size();
    for (size_t i = 0; i < argTypes.size() && ok; ++i) {
      const NumbaType& p = s.params[i];
      ok = p.scalarKind() == argTypes[i].scalarKind() &&
           argTypes[i].ndim() == (p.isArray() ? p.ndim() + 1 : 1);
    }
    if (ok)
      return {s.params, s.returnType};
  }
  throw Error(ErrorKind::InvalidArgument,
              where() + "no signature of the gufunc `" + f.name + "` fits the kernel arguments " +
                  describeTypes(argTypes) +
                  " (each with a loop dimension first); it has:" + describeSignatures(f));
}

} // namespace

SpecializationChoice chooseSpecialization(const KernelState& k,
                                          std::span<const KernelArgument> args) {
  const jit::FunctionInfo& f = *k.function;
  // The file, for messages (built only when one is thrown: this runs at every launch).
  const auto where = [&k] { return k.module->path() + ": "; };
  const std::vector<NumbaType> argTypes = typesOf(args);
  if (k.specialized) {
    // Kernel::specialize: these types only.
    const std::vector<NumbaType>& params = k.specialized->params;
    bool ok = params.size() == argTypes.size();
    for (size_t i = 0; i < argTypes.size() && ok; ++i)
      ok = accepts(params[i], argTypes[i]);
    if (!ok)
      throw Error(ErrorKind::InvalidArgument,
                  where() + "`" + f.name + "` was specialized for " +
                      types::FunctionSignature{std::nullopt, params}.spelling() +
                      "; the arguments are " + describeTypes(argTypes));
    return {params, k.specialized->returnType};
  }
  const bool ufunc = f.kind == types::CompiledFunctionKind::Vectorize;
  if (f.kind == types::CompiledFunctionKind::GuVectorize)
    return gufuncSpecialization(k, argTypes);
  // A ufunc kernel takes its inputs and its output, 1-D arrays; it is typed for their dtypes.
  std::vector<NumbaType> wanted;
  if (ufunc) {
    if (args.size() != f.parameterNames.size() + 1)
      throw Error(ErrorKind::InvalidArgument, where() + "the ufunc `" + f.name + "` takes " +
                                                  std::to_string(f.parameterNames.size()) +
                                                  " input arrays and an output array; " +
                                                  std::to_string(args.size()) + " arguments given");
    for (size_t i = 0; i < args.size(); ++i)
      if (!argTypes[i].isArray() || argTypes[i].ndim() != 1)
        throw Error(ErrorKind::InvalidArgument,
                    where() + "argument " + std::to_string(i) + " of the ufunc `" + f.name +
                        "` must be a 1-D array, not " + argTypes[i].str());
    for (size_t i = 0; i + 1 < args.size(); ++i)
      wanted.push_back(argTypes[i].elementType());
  } else {
    if (args.size() != f.parameterNames.size()) {
      std::string names;
      for (const std::string& p : f.parameterNames)
        names += (names.empty() ? "" : ", ") + p;
      throw Error(ErrorKind::InvalidArgument, where() + "the kernel `" + f.name + "` takes " +
                                                  std::to_string(f.parameterNames.size()) +
                                                  " arguments (" + names + "); " +
                                                  std::to_string(args.size()) + " given");
    }
    wanted = argTypes;
  }
  // A kernel without declared signatures in a module built ahead of time takes the first
  // signature built ahead that accepts the arguments (a `float32[:]` built for any layout serves
  // contiguous arrays too), else it is typed for them (and compiled by the JIT).
  if (f.signatures.empty()) {
    if (!ufunc)
      if (auto ahead = k.module->aheadSignatures.find(f.qualifiedName);
          ahead != k.module->aheadSignatures.end())
        for (const types::FunctionSignature& s : ahead->second) {
          bool ok = s.params.size() == wanted.size();
          for (size_t i = 0; i < wanted.size() && ok; ++i)
            ok = accepts(s.params[i], wanted[i]);
          if (ok)
            return {s.params, s.returnType};
        }
    return {wanted, std::nullopt};
  }
  if (!ufunc) {
    // numba's dispatcher: the signature the arguments need the fewest conversions for.
    const std::optional<std::size_t> chosen = jit::chooseSignature(
        f.signatures, wanted,
        [](const NumbaType& arg, const NumbaType& param) { return accepts(param, arg); });
    if (chosen)
      return {f.signatures[*chosen].params, f.signatures[*chosen].returnType};
  }
  for (const types::FunctionSignature& s : f.signatures) {
    if (!ufunc || s.params.size() != wanted.size())
      continue;
    bool ok = true;
    for (size_t i = 0; i < wanted.size() && ok; ++i)
      ok = s.params[i] == wanted[i];
    if (ok && s.returnType &&
        !(s.returnType->isScalar() && s.returnType->scalarKind() == argTypes.back().scalarKind()))
      ok = false;
    if (ok)
      return {s.params, s.returnType};
  }
  throw Error(ErrorKind::InvalidArgument, where() + "no signature of `" + f.name +
                                              "` accepts the arguments " + describeTypes(argTypes) +
                                              "; it has:" + describeSignatures(f));
}

std::vector<NumbaType> entryParameters(const KernelState& k, std::span<const KernelArgument> args,
                                       const std::vector<NumbaType>& params) {
  if (k.function->kind != types::CompiledFunctionKind::Vectorize &&
      k.function->kind != types::CompiledFunctionKind::GuVectorize)
    return params;
  std::vector<NumbaType> arrays;
  for (const KernelArgument& a : args)
    arrays.push_back(NumbaType::arrayOf(valueTypeOf(a.dtype), a.array->ndim(), ArrayLayout::A));
  return arrays;
}

} // namespace pyk::detail
