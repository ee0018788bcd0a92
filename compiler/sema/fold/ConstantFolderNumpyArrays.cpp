// ConstantFolderNumpyArrays: module arrays numpy builds at import, folded as numba freezes them:
// `np.arange`, `np.zeros` / `np.ones` / `np.full`, `np.linspace`, `np.asfortranarray` /
// `np.ascontiguousarray` / `np.asarray` of an array, `a.astype(dtype)`, `a.copy()`, and
// arithmetic on arrays element by element (`np.arange(10) / 2.`, `(a + 1j) / 2j`), with numpy's
// promotion (a Python scalar is weak: the array keeps its dtype unless the scalar's kind is
// higher; two arrays or a numpy scalar promote as numpy's result_type).
#include <algorithm>
#include <cmath>

#include "sema/fold/ConstantFolder.h"
#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

FoldResult arrayOf(ScalarKind dtype, std::vector<int64_t> shape,
                   std::vector<ConstantValue> values) {
  auto a = std::make_shared<ConstantArray>();
  a->dtype = dtype;
  a->shape = std::move(shape);
  a->values = std::move(values);
  return FoldResult::constant(ConstantValue::arrayOf(std::move(a)));
}

// numpy's default dtype of a Python scalar's kind.
ScalarKind defaultDtypeOf(const ConstantValue& v) {
  switch (v.kind) {
  case Kind::Bool:
    return ScalarKind::Boolean;
  case Kind::Int:
    return ScalarKind::Int64;
  case Kind::Complex:
    return ScalarKind::Complex128;
  default:
    return ScalarKind::Float64;
  }
}

} // namespace

namespace folding {

FoldResult elementwise(ast::BinOpKind op, const ConstantValue& a, const ConstantValue& b) {
  const ConstantArray* left = a.kind == Kind::Array ? a.array.get() : nullptr;
  const ConstantArray* right = b.kind == Kind::Array ? b.array.get() : nullptr;
  if ((left && left->isRecordArray()) || (right && right->isRecordArray()))
    return notFolded("arithmetic on an array of records");
  if ((!left && !a.isNumber()) || (!right && !b.isNumber()))
    return notFolded("arithmetic of an array with " +
                     (left ? b.typeDescription() : a.typeDescription()));
  if (left && right && left->shape != right->shape)
    return notFolded("arithmetic on arrays of different shapes (broadcasting)");
  const ConstantArray& shaped = left ? *left : *right;
  std::vector<ConstantValue> values;
  values.reserve(shaped.values.size());
  std::optional<ScalarKind> dtype;
  // Each element is a numpy scalar of the array's dtype, which promotes with the other operand
  // as numpy promotes arrays (NEP 50: a Python scalar weak).
  auto elementOf = [](const ConstantArray& x, size_t i) { return x.values[i]; };
  for (size_t i = 0; i < shaped.values.size(); ++i) {
    FoldResult r =
        applyBinaryOperator(op, left ? elementOf(*left, i) : a, right ? elementOf(*right, i) : b);
    if (!r.isConstant())
      return r;
    if (!r.value().isNumber())
      return notFolded("this operation on arrays");
    dtype = r.value().scalar;
    values.push_back(r.value());
  }
  if (!dtype) {
    // An empty array: the dtype an element would have.
    const ConstantValue zero = ConstantValue::integer(0, shaped.dtype);
    FoldResult r = applyBinaryOperator(op, left ? zero : a, right ? zero : b);
    dtype = r.isConstant() && r.value().isNumber() ? r.value().scalar : shaped.dtype;
  }
  for (ConstantValue& v : values)
    v.weak = false;
  return arrayOf(*dtype, shaped.shape, std::move(values));
}

FoldResult elementwiseNegation(ast::UnaryOpKind op, const ConstantValue& a) {
  const ConstantArray& x = *a.array;
  if (x.isRecordArray())
    return notFolded("arithmetic on an array of records");
  std::vector<ConstantValue> values;
  for (const ConstantValue& v : x.values) {
    FoldResult r = applyUnaryOperator(op, v);
    if (!r.isConstant())
      return r;
    values.push_back(r.value());
    values.back().weak = false;
  }
  const ScalarKind dtype = values.empty() ? x.dtype : values.front().scalar;
  return arrayOf(dtype, x.shape, std::move(values));
}

} // namespace folding

FoldResult ConstantFolder::evalNumpyConstructor(HostCall kind, const ast::Call* call, int depth) {
  std::vector<ConstantValue> args;
  if (std::optional<FoldResult> failed = evalArguments(call, depth, args))
    return *failed;
  // Keywords: dtype, and fill_value (np.full), num / endpoint (np.linspace).
  std::optional<ScalarKind> dtype;
  std::optional<ConstantValue> fill;
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg == "dtype") {
      const auto* name = k.value->as<ast::Name>();
      if (name && symbols_.find(name->id) == nullptr && builtinDtype(name->id)) {
        dtype = builtinDtype(name->id);
        continue;
      }
      FoldResult d = eval(k.value, depth + 1);
      if (!d.isConstant())
        return d;
      if (d.value().kind == Kind::Type && d.value().typeValue.isScalar())
        dtype = d.value().typeValue.scalarKind();
      else if (d.value().kind == Kind::Str && numpyScalarKindNamed(d.value().strValue))
        dtype = numpyScalarKindNamed(d.value().strValue);
      else
        return notFolded("this dtype");
    } else if (k.arg == "fill_value" && kind == HostCall::NumpyFull) {
      FoldResult f = eval(k.value, depth + 1);
      if (!f.isConstant())
        return f;
      fill = f.value();
    } else {
      return notFolded("a numpy call with `" + (k.arg.empty() ? std::string("**") : k.arg) + "`");
    }
  }
  auto shapeOf = [&](const ConstantValue& s) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> shape;
    for (const ConstantValue& d : s.kind == Kind::Tuple ? s.elements : std::vector{s}) {
      if (d.kind != Kind::Int || d.intValue < 0 || d.intValue > kMaxArrayElements)
        return std::nullopt;
      shape.push_back(static_cast<int64_t>(d.intValue));
    }
    return shape;
  };
  auto filled = [&](const std::vector<int64_t>& shape, const ConstantValue& value,
                    ScalarKind type) -> FoldResult {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    if (n > kMaxArrayElements)
      return FoldResult::notConstant("the array is too large to freeze");
    FoldResult v = castToScalar(value, type);
    if (!v.isConstant())
      return v;
    return arrayOf(type, shape, std::vector<ConstantValue>(static_cast<size_t>(n), v.value()));
  };
  switch (kind) {
  case HostCall::NumpyZeros:
  case HostCall::NumpyOnes:
  case HostCall::NumpyFull: {
    // np.zeros(shape) / np.ones(shape) / np.full(shape, fill_value): float64 unless a dtype
    // (np.full: the fill value's dtype).
    if (args.empty() || args.size() > (kind == HostCall::NumpyFull ? 2u : 1u))
      return notFolded("this call");
    std::optional<std::vector<int64_t>> shape = shapeOf(args[0]);
    if (!shape || shape->empty())
      return notFolded("an array of this shape");
    if (kind == HostCall::NumpyZeros)
      fill = ConstantValue::pythonInt(0);
    else if (kind == HostCall::NumpyOnes)
      fill = ConstantValue::pythonInt(1);
    else if (args.size() == 2)
      fill = args[1];
    if (!fill)
      return notFolded("`np.full` without a fill value");
    const ScalarKind type = dtype.value_or(kind == HostCall::NumpyFull
                                               ? (fill->weak ? defaultDtypeOf(*fill) : fill->scalar)
                                               : ScalarKind::Float64);
    return filled(*shape, *fill, type);
  }
  case HostCall::NumpyArange: {
    // np.arange([start,] stop[, step]): int64 when every bound is an int, else float64.
    if (args.empty() || args.size() > 3)
      return notFolded("this call of `numpy.arange`");
    for (const ConstantValue& a : args)
      if (!isReal(a))
        return notFolded("`numpy.arange` of " + a.typeDescription());
    const bool integers = std::all_of(args.begin(), args.end(), [](const ConstantValue& a) {
      return a.kind == Kind::Int || a.kind == Kind::Bool;
    });
    auto real = [](const ConstantValue& v) {
      return v.kind == Kind::Float
                 ? v.floatValue
                 : static_cast<double>(v.kind == Kind::Bool ? v.boolValue : v.intValue);
    };
    const double start = args.size() > 1 ? real(args[0]) : 0;
    const double stop = real(args[args.size() > 1 ? 1 : 0]);
    const double step = args.size() > 2 ? real(args[2]) : 1;
    if (step == 0)
      return invalid("Maximum allowed size exceeded (`numpy.arange` with a step of 0)");
    const double count = std::ceil((stop - start) / step);
    if (!(count < static_cast<double>(kMaxArrayElements)))
      return FoldResult::notConstant("the array is too large to freeze");
    const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
    const ScalarKind type = dtype.value_or(integers ? ScalarKind::Int64 : ScalarKind::Float64);
    std::vector<ConstantValue> values;
    for (int64_t i = 0; i < n; ++i) {
      ConstantValue v = integers ? ConstantValue::pythonInt(static_cast<__int128>(start) +
                                                            static_cast<__int128>(step) * i)
                                 : ConstantValue::floating(start + static_cast<double>(i) * step);
      FoldResult c = castToScalar(v, type);
      if (!c.isConstant())
        return c;
      values.push_back(c.value());
    }
    return arrayOf(type, {n}, std::move(values));
  }
  case HostCall::NumpyLinspace: {
    // np.linspace(start, stop, num=50): num values, both ends included, float64.
    if (args.size() < 2 || args.size() > 3 || !isReal(args[0]) || !isReal(args[1]))
      return notFolded("this call of `numpy.linspace`");
    const int64_t n = args.size() == 3 && args[2].kind == Kind::Int
                          ? static_cast<int64_t>(args[2].intValue)
                          : (args.size() == 3 ? -1 : 50);
    if (n < 0 || n > kMaxArrayElements)
      return notFolded("this call of `numpy.linspace`");
    auto real = [](const ConstantValue& v) {
      return v.kind == Kind::Float ? v.floatValue : static_cast<double>(v.intValue);
    };
    const double a = real(args[0]), b = real(args[1]);
    const ScalarKind type = dtype.value_or(ScalarKind::Float64);
    std::vector<ConstantValue> values;
    const double step = n > 1 ? (b - a) / static_cast<double>(n - 1) : 0;
    for (int64_t i = 0; i < n; ++i) {
      const double x = i == n - 1 && n > 1 ? b : a + static_cast<double>(i) * step;
      FoldResult c = castToScalar(ConstantValue::floating(x), type);
      if (!c.isConstant())
        return c;
      values.push_back(c.value());
    }
    return arrayOf(type, {n}, std::move(values));
  }
  case HostCall::NumpyLayoutCopy: {
    // np.asfortranarray / np.ascontiguousarray / np.copy of an array: the same items (the
    // kernel indexes them the same whatever the memory order).
    if (args.size() != 1 || args[0].kind != Kind::Array)
      return notFolded("this call");
    if (!dtype || args[0].array->isRecordArray())
      return FoldResult::constant(args[0]);
    return castArray(args[0], *dtype);
  }
  default:
    return notFolded("this numpy call");
  }
}

FoldResult ConstantFolder::castArray(const ConstantValue& array, ScalarKind dtype) {
  const ConstantArray& a = *array.array;
  if (a.isRecordArray())
    return notFolded("`astype` of an array of records");
  std::vector<ConstantValue> values;
  values.reserve(a.values.size());
  for (const ConstantValue& v : a.values) {
    FoldResult c = castToScalar(v, dtype);
    if (!c.isConstant())
      return c;
    values.push_back(c.value());
  }
  return arrayOf(dtype, a.shape, std::move(values));
}

} // namespace pyk::sema
