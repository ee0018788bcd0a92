// TypeRulesTest: every row of numba's scalar typing table (data/numba_type_rules.txt) against
// TypeRules, with the few documented places where pyk deliberately differs from numba 0.56.
#include <gtest/gtest.h>

#include "sema/typing/FunctionTyper.h"
#include "sema/typing/TypeRules.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pyk::sema {
namespace {

using K = ScalarKind;

std::optional<K> kindFromTable(const std::string& name) {
  static const std::map<std::string, K> kinds = {
      {"bool", K::Boolean},        {"int8", K::Int8},
      {"int16", K::Int16},         {"int32", K::Int32},
      {"int64", K::Int64},         {"uint8", K::UInt8},
      {"uint16", K::UInt16},       {"uint32", K::UInt32},
      {"uint64", K::UInt64},       {"float16", K::Float16},
      {"float32", K::Float32},     {"float64", K::Float64},
      {"complex64", K::Complex64}, {"complex128", K::Complex128}};
  auto it = kinds.find(name);
  if (it == kinds.end())
    return std::nullopt;
  return it->second;
}

// The table's spelling of a scalar or a tuple: `float32`, `(float32,int32)`.
std::string tableSpelling(const NumbaType& type) {
  if (type.isScalar())
    return type.scalarKind() == K::Boolean ? "bool" : scalarName(type.scalarKind());
  std::string text = "(";
  for (size_t i = 0; i < type.elements().size(); ++i)
    text += (i ? "," : "") + tableSpelling(type.elements()[i]);
  return text + ")";
}
std::string tableSpelling(std::optional<K> kind) {
  return kind ? tableSpelling(NumbaType::scalar(*kind)) : "error";
}

template <typename Enum, size_t N>
std::optional<Enum> enumNamed(const std::string& name, const std::array<Enum, N>& all) {
  for (Enum e : all)
    if (name == ast::nameOf(e))
      return e;
  return std::nullopt;
}
constexpr std::array<ast::BinOpKind, 13> kBinOps = {
    ast::BinOpKind::Add,     ast::BinOpKind::Sub,   ast::BinOpKind::Mult,   ast::BinOpKind::MatMult,
    ast::BinOpKind::Div,     ast::BinOpKind::Mod,   ast::BinOpKind::Pow,    ast::BinOpKind::LShift,
    ast::BinOpKind::RShift,  ast::BinOpKind::BitOr, ast::BinOpKind::BitXor, ast::BinOpKind::BitAnd,
    ast::BinOpKind::FloorDiv};
constexpr std::array<ast::UnaryOpKind, 4> kUnaryOps = {
    ast::UnaryOpKind::Invert, ast::UnaryOpKind::Not, ast::UnaryOpKind::UAdd,
    ast::UnaryOpKind::USub};
constexpr std::array<ast::CmpOpKind, 10> kCmpOps = {
    ast::CmpOpKind::Eq, ast::CmpOpKind::NotEq, ast::CmpOpKind::Lt, ast::CmpOpKind::LtE,
    ast::CmpOpKind::Gt, ast::CmpOpKind::GtE,   ast::CmpOpKind::Is, ast::CmpOpKind::IsNot,
    ast::CmpOpKind::In, ast::CmpOpKind::NotIn};

// One line: `<target> <category> <name> <args...> -> <result> [: <operand types...>]`.
struct Row {
  std::string line;
  std::string target, category, name;
  std::vector<K> args;
  std::string result;
  std::vector<std::string> operands;

  bool involves(K kind) const { return std::find(args.begin(), args.end(), kind) != args.end(); }
  bool allAre(K kind) const {
    return std::all_of(args.begin(), args.end(), [&](K k) { return k == kind; });
  }
};

std::vector<Row> readTable() {
  std::ifstream in(std::string(PYK_TEST_DATA_DIR) + "/sema/data/numba_type_rules.txt");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    Row row;
    row.line = line;
    std::istringstream words(line);
    words >> row.target >> row.category >> row.name;
    std::string word;
    while (words >> word && word != "->") {
      std::optional<K> kind = kindFromTable(word);
      EXPECT_TRUE(kind) << line;
      if (kind)
        row.args.push_back(*kind);
    }
    words >> row.result;
    if (words >> word && word == ":")
      while (words >> word)
        row.operands.push_back(word);
    rows.push_back(row);
  }
  return rows;
}

// The places where pyk follows numba's code generation rather than numba 0.56's typing; a
// non-empty reason skips the row. Everything else must agree (float16 included: numba 0.56
// promotes float16 operands to float32, and so does pyk).
std::string documentedException(const Row& row) {
  // CPU numba cannot compile float16 at all (typing passed, lowering failed).
  if (row.result == "nolower")
    return "float16 or complex min/max: the CPU back end cannot lower it";
  // CPU numba's math module typing is not the CUDA target's (cpu math.floor → int64, cudamath
  // → float; cpu math.pow takes any ints, ...); cudamath is what kernels see: the cuda rows.
  if (row.target == "cpu" && row.category == "math")
    return "cpu math typing differs from numba.cuda's cudamath";
  // numba types `a is b` on any two scalars (same type: a == b; different types: constant
  // False); pyk rejects `is` / `is not` on scalars.
  if (row.category == "cmp" && (row.name == "Is" || row.name == "IsNot"))
    return "`is` on scalars rejected";
  // numba types min/max of complex numbers, then cannot compile them (no complex ordering; the
  // cpu rows say nolower).
  if ((row.name == "min" || row.name == "max") &&
      (row.involves(K::Complex64) || row.involves(K::Complex128)))
    return "complex min/max does not compile";
  // numba.cuda types complex(re, im) with a complex part, CPU numba rejects it and the lowering
  // would drop an imaginary half: pyk rejects it, as CPU numba does.
  if (row.target == "cuda" && row.name == "complex2" &&
      (row.involves(K::Complex64) || row.involves(K::Complex128)))
    return "complex(re, im) with a complex part rejected";
  return "";
}

std::string functionName(const Row& row) {
  if (row.category == "math")
    return "math." + row.name;
  if (row.category == "cmath")
    return "cmath." + row.name;
  if (row.category == "cuda")
    return "numba.cuda." + row.name;
  if (row.name == "round1" || row.name == "round2")
    return "round";
  if (row.name == "complex1" || row.name == "complex2")
    return "complex";
  return row.name;
}

// The operand type numba converts to for a binary operation: the table gives the argument types
// of the case numba chose, which its lowering then casts to the result type (int_add_impl,
// int_truediv_impl, ...); float ** int keeps an integer exponent, as the case says.
std::string expectedOperand(const Row& row) {
  bool floatPowerOfInt = row.name == "Pow" && row.operands.size() == 2 &&
                         row.operands[0] != row.operands[1] && row.operands[0] == row.result;
  return floatPowerOfInt ? row.operands[0] : row.result;
}

// Checks one row; returns "" when TypeRules agrees, else what it said.
std::string disagreement(const Row& row) {
  std::ostringstream got;
  if (row.category == "binop") {
    ast::BinOpKind op = *enumNamed(row.name, kBinOps);
    std::string result = tableSpelling(binaryResultType(op, row.args[0], row.args[1]));
    std::string operand = tableSpelling(binaryOperandType(op, row.args[0], row.args[1]));
    if (result != row.result || (row.result != "error" && operand != expectedOperand(row)))
      got << result << " operands " << operand;
  } else if (row.category == "unary") {
    std::string result =
        tableSpelling(unaryResultType(*enumNamed(row.name, kUnaryOps), row.args[0]));
    if (result != row.result)
      got << result;
  } else if (row.category == "cmp") {
    std::optional<K> operand =
        comparisonOperandType(*enumNamed(row.name, kCmpOps), row.args[0], row.args[1]);
    std::string expected = row.result == "error" ? "error" : row.operands.at(0);
    if (row.result != "error" && row.result != "bool")
      expected = "non-boolean result " + row.result;
    if (tableSpelling(operand) != expected)
      got << tableSpelling(operand);
  } else if (row.category == "unify") {
    std::string result = tableSpelling(unifyScalars(row.args[0], row.args[1]));
    if (result != row.result)
      got << result;
  } else {
    std::string function = functionName(row);
    std::optional<NumbaType> type = callResultType(function, row.args);
    std::string result = type ? tableSpelling(*type) : "error";
    std::optional<K> scalar = mathResultType(function, row.args);
    std::optional<std::vector<K>> args = callArgumentTypes(function, row.args);
    std::vector<std::string> argNames;
    if (args)
      for (K k : *args)
        argNames.push_back(tableSpelling(k));
    // min/max: numba's signature keeps the argument types; its lowering casts both to the result.
    bool argsAsGiven = row.name != "min" && row.name != "max";
    bool scalarAgrees = type && (type->isScalar() ? scalar == type->scalarKind()
                                                  : scalar == type->elements()[0].scalarKind());
    if (result != row.result || (type && !scalarAgrees) ||
        (type && argsAsGiven && argNames != row.operands)) {
      got << result << " :";
      for (const std::string& a : argNames)
        got << " " << a;
    }
  }
  return got.str();
}

TEST(TypeRules, EveryTableRowAgreesWithNumba) {
  std::vector<Row> rows = readTable();
  ASSERT_GT(rows.size(), 10000u) << "table missing: " << PYK_TEST_DATA_DIR;
  size_t checked = 0, skipped = 0, failures = 0;
  for (const Row& row : rows) {
    if (!documentedException(row).empty()) {
      ++skipped;
      continue;
    }
    ++checked;
    std::string got = disagreement(row);
    if (!got.empty() && ++failures <= 60)
      ADD_FAILURE() << row.line << "\n  TypeRules: " << got;
  }
  EXPECT_EQ(failures, 0u) << "of " << checked << " rows checked";
  std::cout << "[ TypeRules ] " << checked << " rows agree, " << skipped
            << " documented exceptions\n";
}

// numba 0.56's float16: no operator or math function has a float16 case (numba-cuda's later
// float16 operators are not 0.56's), so float16 operands promote to float32; cuda.fp16's functions
// are the only float16 arithmetic, converting any non-complex argument to float16.
TEST(TypeRules, HalfPrecisionIsNumba056s) {
  using ast::BinOpKind;
  for (BinOpKind op : {BinOpKind::Add, BinOpKind::Sub, BinOpKind::Mult, BinOpKind::Div}) {
    EXPECT_EQ(binaryResultType(op, K::Float16, K::Float16), K::Float32);
    EXPECT_EQ(binaryOperandType(op, K::Float16, K::Float16), K::Float32);
  }
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::Float16, K::Int8), K::Float32);
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::Float16, K::Int32), K::Float64);
  EXPECT_EQ(comparisonOperandType(ast::CmpOpKind::Lt, K::Float16, K::Float16), K::Float32);
  EXPECT_EQ(unaryResultType(ast::UnaryOpKind::USub, K::Float16), K::Float32);
  const std::array<K, 1> half{K::Float16};
  EXPECT_EQ(mathResultType("abs", half), K::Float32);
  EXPECT_EQ(mathResultType("math.sqrt", half), K::Float32);
  EXPECT_EQ(mathResultType("math.floor", half), K::Float32);
  // min/max unify: float16 with float16 (or an 8-bit integer) stays float16.
  const std::array<K, 2> halfAndByte{K::Float16, K::UInt8};
  EXPECT_EQ(mathResultType("max", halfAndByte), K::Float16);

  const std::array<K, 2> halves{K::Float16, K::Float16};
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hadd", halves), K::Float16);
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hlt", halves), K::Boolean);
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hneg", half), K::Float16);
  // hmul(h, 2) and hmul(h, 2.5): the int64 and the float64 convert to float16.
  const std::array<K, 2> halfAndInt{K::Float16, K::Int64};
  const std::array<K, 2> halfAndDouble{K::Float16, K::Float64};
  EXPECT_EQ(callArgumentTypes("numba.cuda.fp16.hmul", halfAndInt),
            (std::vector<K>{K::Float16, K::Float16}));
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hmul", halfAndDouble), K::Float16);
  const std::array<K, 3> three{K::Float16, K::Float16, K::Float16};
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hfma", three), K::Float16);
  // Complex numbers do not convert to float16; the arity is the function's.
  const std::array<K, 2> halfAndComplex{K::Float16, K::Complex64};
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hadd", halfAndComplex), std::nullopt);
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hadd", half), std::nullopt);
  EXPECT_EQ(mathResultType("numba.cuda.fp16.hfma", halves), std::nullopt);
}

// The facts NUMBA_SEMANTICS.md states, spelled out.
TEST(TypeRules, NumbaSemanticsExamples) {
  using ast::BinOpKind;
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::Int32, K::Int32), K::Int64);
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::UInt64, K::Int64), K::Int64);
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::UInt32, K::UInt32), K::UInt64);
  EXPECT_EQ(binaryResultType(BinOpKind::LShift, K::UInt8, K::Int64), K::UInt64);
  EXPECT_EQ(binaryResultType(BinOpKind::RShift, K::Int32, K::UInt64), K::Int64);
  EXPECT_EQ(binaryResultType(BinOpKind::Div, K::Int32, K::Int32), K::Float64);
  EXPECT_EQ(binaryOperandType(BinOpKind::Div, K::Int32, K::Int32), K::Float64);
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::Float32, K::Float32), K::Float32);
  EXPECT_EQ(binaryResultType(BinOpKind::Add, K::Float32, K::Int64), K::Float64);
  EXPECT_EQ(binaryResultType(BinOpKind::Pow, K::Float32, K::Int64), K::Float32);
  EXPECT_EQ(binaryResultType(BinOpKind::Mod, K::Complex64, K::Complex64), std::nullopt);
  EXPECT_EQ(binaryResultType(BinOpKind::BitAnd, K::Float64, K::Float64), std::nullopt);
  EXPECT_EQ(binaryResultType(BinOpKind::MatMult, K::Int64, K::Int64), std::nullopt);
  const std::array<K, 1> f32{K::Float32};
  const std::array<K, 1> i32{K::Int32};
  EXPECT_EQ(mathResultType("math.floor", f32), K::Float32);
  EXPECT_EQ(mathResultType("math.floor", i32), K::Float64);
  EXPECT_EQ(mathResultType("math.sin", i32), K::Float64);
  EXPECT_EQ(mathResultType("round", f32), K::Int64);
  EXPECT_EQ(callResultType("math.frexp", f32),
            NumbaType::tuple({NumbaType::scalar(K::Float32), NumbaType::scalar(K::Int32)}));
  const std::array<K, 2> roundTo{K::Float32, K::Int64};
  EXPECT_EQ(mathResultType("round", roundTo), K::Float32);
  EXPECT_EQ(unifyScalars(K::Int64, K::Float64), K::Float64);
  EXPECT_EQ(unifyScalars(K::Int32, K::Int64), K::Int64);
  EXPECT_EQ(unifyScalars(K::Boolean, K::Int32), K::Int32);
  EXPECT_EQ(unifyScalars(K::Boolean, K::Float16), std::nullopt);
}

// numba's unify_pairs with none: None and a value make an Optional of the value; an Optional
// absorbs None and unifies its value with another (numba: Optional(int32) with int64 is
// Optional(int64)); nothing without a value at run time goes into one.
TEST(TypeRules, NoneAndAValueUnifyIntoAnOptional) {
  const NumbaType none = NumbaType::voidType();
  const NumbaType i32 = NumbaType::scalar(K::Int32), i64 = NumbaType::scalar(K::Int64);
  const NumbaType f64 = NumbaType::scalar(K::Float64);
  EXPECT_EQ(unify(i64, none), NumbaType::optional(i64));
  EXPECT_EQ(unify(none, i64), NumbaType::optional(i64));
  EXPECT_EQ(unify(none, none), none);
  EXPECT_EQ(unify(NumbaType::optional(i32), none), NumbaType::optional(i32));
  EXPECT_EQ(unify(NumbaType::optional(i32), i64), NumbaType::optional(i64));
  EXPECT_EQ(unify(NumbaType::optional(f64), NumbaType::optional(i64)), NumbaType::optional(f64));
  const NumbaType view = NumbaType::array(K::Float32, 1, ArrayLayout::C);
  EXPECT_EQ(unify(none, view), NumbaType::optional(view));
  EXPECT_EQ(unify(none, NumbaType::typeRef(K::Float32)), std::nullopt);
  EXPECT_EQ(unify(NumbaType::optional(i64), view), std::nullopt);
  EXPECT_EQ(NumbaType::optional(i64).str(), "OptionalType(int64)");
  EXPECT_EQ(NumbaType::optional(view).spelling(), "optional(float32[::1])");
}

} // namespace
} // namespace pyk::sema
