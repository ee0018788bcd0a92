// IrNode: the base of pyk's typed kernel IR: the node kinds (from IrNodes.def), Node with its
// source range and is<T>() / as<T>(), the four families (Expr, Stmt, Target, Iter), the operator
// enums, and the small values nodes hold that are not nodes (a variable's version, a shape, the
// pieces of a print). Include ir/Ir.h for the whole IR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/DatetimeOperation.h"
#include "base/NumbaType.h"
#include "diag/SourceLocation.h"
#include "sema/catalog/Intrinsic.h"
#include "sema/catalog/ValueMember.h"
#include "sema/fold/ConstantValue.h"
#include "sema/resolve/PhiEdge.h"

namespace pyk::ir {

struct Function;

enum class NodeKind : uint8_t {
#define IR_NODE(Name, Family, Fields) Name,
#include "ir/IrNodes.def"
};
enum class Family : uint8_t { Expr, Stmt, Target, Iter };

const char* nodeKindName(NodeKind kind); // "Binary", "ForRange", ...
Family familyOf(NodeKind kind);

struct Node {
  NodeKind kind;
  SourceRange range;

  explicit Node(NodeKind k) : kind(k) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  template <class T>
  bool is() const {
    return T::classof(this);
  }
  template <class T>
  T* as() {
    return is<T>() ? static_cast<T*>(this) : nullptr;
  }
  template <class T>
  const T* as() const {
    return is<T>() ? static_cast<const T*>(this) : nullptr;
  }
};

// A value, of numba type `type` (none only for what has no value: a call of a void function, a
// Slice).
struct Expr : Node {
  using Node::Node;
  types::NumbaType type;
  static bool classof(const Node* n) { return familyOf(n->kind) == Family::Expr; }
};
struct Stmt : Node {
  using Node::Node;
  static bool classof(const Node* n) { return familyOf(n->kind) == Family::Stmt; }
};
// A place a store writes; `type` is the type the place holds (a stored value converts to it).
struct Target : Node {
  using Node::Node;
  types::NumbaType type;
  static bool classof(const Node* n) { return familyOf(n->kind) == Family::Target; }
};
// What a `for` loop iterates over; `type` is the type of one item.
struct Iter : Node {
  using Node::Node;
  types::NumbaType type;
  static bool classof(const Node* n) { return familyOf(n->kind) == Family::Iter; }
};

// ---- operators: the overload numba chose ------------------------------------------------------

// The operands of Add ... Mod are of the node's type (numba's operand type for the pair); of the
// powers, the base is of the result's type and so is the exponent, but for PowFloatInteger
// (a float to an int64 power); a shift's left operand is of the result's type, its count any
// integer.
enum class BinaryOp : uint8_t {
  Add,
  Sub,
  Mult,
  Div, // true division (of floats or complex numbers: numba converts integers first)
  FloorDiv,
  Mod,
  BitAnd,
  BitOr,
  BitXor,
  LShift,
  RShift,
  PowInteger,      // integer ** integer
  PowFloatInteger, // float ** int64
  PowFloat,        // float ** float
  PowComplex,      // complex ** complex
};
enum class UnaryOp : uint8_t { Negate, Plus, Invert };
enum class CompareOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE };
enum class LogicalOp : uint8_t { And, Or };
using types::DatetimeOp;

const char* nameOf(BinaryOp op);   // "add", "pow_float_int", ...
const char* nameOf(UnaryOp op);    // "negate"
const char* nameOf(CompareOp op);  // "lt"
const char* nameOf(LogicalOp op);  // "and"
const char* nameOf(DatetimeOp op); // "timedelta_add"
// The C++ (and Python) operator of the ones that have one: "+", "<=", "&"; "" for the others.
const char* spellingOf(BinaryOp op);
const char* spellingOf(CompareOp op);

// ---- values nodes hold ------------------------------------------------------------------------

// One SSA version of a variable of the function (Function::variables, Function::versions).
struct VersionRef {
  sema::VariableId variable = 0;
  size_t version = 0;
  friend bool operator==(const VersionRef&, const VersionRef&) = default;
};

// An ArrayAllocation's shape.
using Shape = std::vector<int64_t>;
// A SpreadCall's bindings, one per spread value.
using Bindings = std::vector<int>;
// The code points a StoreCharacters writes.
using Characters = std::vector<uint32_t>;

// One piece of a print: a text written as it is, or the next of the Print's values.
struct PrintPiece {
  bool isValue = false;
  std::string text;
};
using PrintPieces = std::vector<PrintPiece>;

} // namespace pyk::ir
