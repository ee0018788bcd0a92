// FunctionLowering: the lowering of one specialization's body into its ir::Function, shared by
// the files that lower each family of constructs: LowerFunction.cpp (the function, its variables
// and versions), LowerStatements.cpp, LowerLoops.cpp, LowerTargets.cpp, LowerExpressions.cpp,
// LowerAccess.cpp (attributes and subscripts), LowerCalls.cpp (calls and the dispatch of
// intrinsics) and LowerIntrinsics.cpp (the intrinsic families). Internal to lower/: the public
// face is Lowering.h.
//
// Each construct lowers exactly as code generation spells it: what it converts, in which order it
// evaluates, which nodes it keeps (a value evaluated only for its effects stays in the IR).
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "lower/Lowering.h"
#include "sema/catalog/Intrinsic.h"
#include "sema/typing/DatetimeRules.h"
#include "syntax/Ast.h"
#include "syntax/ResultVisitor.h"

namespace pyk::lower {

using types::NumbaType;
using types::ScalarKind;

// What the lowering of one module shares between its functions.
struct ModuleLowering {
  const sema::ResolvedModule& module;
  const SourceFile& file;
  DiagnosticEngine& diags;
  ir::Module& out;
  std::map<const sema::Specialization*, ir::Function*> functions;
  std::set<std::string> reported; // what was reported where, each once a unit
  std::vector<std::string> internalProblems;
  bool failed = false;
};

class FunctionLowering : private ast::ExprVisitor<FunctionLowering, ir::Expr*, const NumbaType*>,
                         private ast::StmtVisitor<FunctionLowering, ir::Stmt*> {
  friend class ast::ExprVisitor<FunctionLowering, ir::Expr*, const NumbaType*>;
  friend class ast::StmtVisitor<FunctionLowering, ir::Stmt*>;

public:
  FunctionLowering(ModuleLowering& m, const sema::Specialization& spec, ir::Function& out)
      : m_(m), spec_(spec), scope_(spec.function->scope), out_(out) {}

  // The function's header, variables, versions and body.
  void run();

private:
  // ---- building (LowerFunction.cpp) ----
  template <class T>
  T* make(SourceRange range) {
    return m_.out.make<T>(range);
  }
  template <class T>
  T* makeExpr(SourceRange range, const NumbaType& type) {
    T* e = make<T>(range);
    e->type = type;
    return e;
  }
  void unsupported(SourceRange r, const std::string& what);
  void internalProblem(const std::string& what) { m_.internalProblems.push_back(what); }
  void header();
  void versions();
  // The module that defines the function (a stdlib module for its functions).
  const sema::ResolvedModule& definingModule() const;
  // `e` folded to an integer or a tuple of them (empty when it is not constant).
  std::vector<int64_t> constantShape(const ast::Expr* e) const;

  // ---- statements (LowerStatements.cpp) ----
  std::vector<ir::Stmt*> block(const std::vector<ast::Stmt*>& body);
  ir::Stmt* statement(const ast::Stmt* s);
  ir::Stmt* nop(const ast::Stmt* s, const char* what);
  ir::Stmt* visitExprStmt(const ast::ExprStmt* s);
  ir::Stmt* visitAssign(const ast::Assign* a);
  ir::Stmt* stringIntoRecordField(const ast::Assign* a);
  ir::Stmt* visitAugAssign(const ast::AugAssign* a);
  ir::Stmt* visitAnnAssign(const ast::AnnAssign* a);
  // A Store of `value` into `target` (null when either is); `augmented`: `x op= v`.
  ir::Stmt* store(SourceRange at, ir::Target* target, ir::Expr* value, bool augmented);
  ir::Stmt* visitIf(const ast::If* i);
  ir::Stmt* visitWhile(const ast::While* w);
  ir::Stmt* visitReturn(const ast::Return* r);
  ir::Stmt* visitPass(const ast::Pass* p) { return nop(p, "pass"); }
  // An inner function is a device function of its own (sema/resolve/InnerFunctions.h): its
  // definition does nothing where it stands.
  ir::Stmt* visitFunctionDef(const ast::FunctionDef* d) { return nop(d, "def"); }
  ir::Stmt* visitBreak(const ast::Break* b) { return make<ir::Break>(b->range); }
  ir::Stmt* visitContinue(const ast::Continue* c) { return make<ir::Continue>(c->range); }
  ir::Stmt* visitAssert(const ast::Assert* a) { return exceptionCheck(a); }
  ir::Stmt* visitRaise(const ast::Raise* r) { return exceptionCheck(r); }
  ir::Stmt* exceptionCheck(const ast::Stmt* s);
  ir::Stmt* visitStmt(const ast::Stmt* s);

  // ---- loops (LowerLoops.cpp) ----
  ir::Stmt* visitFor(const ast::For* loop);
  ir::Stmt* rangeLoop(const ast::For* loop, const ast::Call* range);
  ir::Iter* iteration(const ast::Expr* iter);

  // ---- assignment targets (LowerTargets.cpp) ----
  // The target `target` as a store of a value of type `valueType`.
  ir::Target* target(const ast::Expr* target, const NumbaType& valueType);

  // ---- expressions (LowerExpressions.cpp) ----
  const NumbaType* typeOf(const ast::Expr* e) const { return spec_.typeOf(e); }
  ir::Expr* expr(const ast::Expr* e);
  // `e` converted to `to` (a Cast unless it has that type); null stays null.
  ir::Expr* as(ir::Expr* e, const NumbaType& to);
  // The value of the Optional `optional` (numba's TypeError when it is None); null stays null.
  ir::Expr* unwrap(ir::Expr* optional);
  // Python's None, of type none (converted to an Optional where it is used).
  ir::Expr* noneLiteral(SourceRange at);
  // The None a bare `return` or the end of the body returns, as the function's result: an
  // Optional, or the number a declared signature converts it to (numba's optional_to_any).
  ir::Expr* returnedNone(SourceRange at);
  ir::Expr* exprAs(const ast::Expr* e, const NumbaType& to) { return as(expr(e), to); }
  ir::Expr* exprAs(const ast::Expr* e, ScalarKind to) { return exprAs(e, NumbaType::scalar(to)); }
  // `e` as a condition: a boolean (Python's truth of a number, or of a tuple by its length).
  ir::Expr* condition(const ast::Expr* e);
  ir::Expr* visitConstant(const ast::Constant* c, const NumbaType* t);
  ir::Expr* visitName(const ast::Name* n, const NumbaType* t);
  ir::Expr* visitBinOp(const ast::BinOp* b, const NumbaType* t);
  // `l op r` (operands lowered, of their types), in `result`.
  // numba's datetime64 / timedelta64 operation typing chose (`r` null for a unary one), its
  // operands converted as the rule says.
  ir::Expr* datetimeOperation(const std::optional<sema::DatetimeRule>& rule, ir::Expr* l,
                              ir::Expr* r, SourceRange at);
  ir::Expr* binary(ast::BinOpKind op, ir::Expr* l, ir::Expr* r, const NumbaType& result,
                   SourceRange at);
  ir::Expr* binary(ast::BinOpKind op, const ast::Expr* l, const ast::Expr* r,
                   const NumbaType& result, SourceRange at);
  ir::Expr* visitUnaryOp(const ast::UnaryOp* u, const NumbaType* t);
  ir::Expr* unary(ast::UnaryOpKind op, const ast::Expr* operand, const NumbaType* t,
                  SourceRange at);
  ir::Expr* visitCompare(const ast::Compare* c, const NumbaType* t);
  // numba's tuple comparison (cpython/tupleobj.py): the operands evaluated once and bound, their
  // elements compared pair by pair (== all equal and of one length; the orderings
  // lexicographic, then by length); `compareValues` compares two values of scalar or tuple types.
  ir::Expr* tupleComparison(ast::CmpOpKind op, ir::Expr* l, ir::Expr* r, SourceRange at);
  // The address of `array`'s first item: `a.ctypes.data` (a uint64), `ffi.from_buffer(a)` (a
  // CPointer).
  ir::Expr* arrayAddress(const ast::Expr* array, const NumbaType& type, SourceRange at);
  // `value in tuple` / `not in`: numba's tuple contains.
  ir::Expr* tupleContains(bool negated, ir::Expr* value, ir::Expr* tuple, SourceRange at);
  ir::Expr* compareValues(ast::CmpOpKind op, ir::Expr* l, ir::Expr* r, SourceRange at);
  ir::Expr* comparison(ast::CmpOpKind op, const ast::Expr* left, const ast::Expr* right,
                       SourceRange at);
  ir::Expr* visitBoolOp(const ast::BoolOp* b, const NumbaType* t);
  ir::Expr* visitIfExp(const ast::IfExp* i, const NumbaType* t);
  ir::Expr* visitTuple(const ast::Tuple* tuple, const NumbaType* t);
  ir::Expr* visitCall(const ast::Call* c, const NumbaType*) { return call(c); }
  ir::Expr* foreignCall(const ast::Call* c, const sema::ForeignCallee& f);
  ir::Expr* visitExpr(const ast::Expr* e, const NumbaType* t);
  // `Color.red` (typed as its Enum member type) or `config.TPB`: the constant's value.
  ir::Expr* enumOrModuleConstant(const sema::ConstantValue& v, const NumbaType& t, SourceRange at);
  ir::Expr* frozenConstant(const sema::ConstantValue& v, const NumbaType& t, SourceRange at,
                           const std::string& name);

  // ---- attributes and subscripts (LowerAccess.cpp) ----
  ir::Expr* visitAttribute(const ast::Attribute* a, const NumbaType* t);
  ir::Expr* visitSubscript(const ast::Subscript* s, const NumbaType* t);
  ir::Expr* recordField(const ast::Expr* record, const NumbaType& recordType,
                        const std::string& name, SourceRange at, const NumbaType* t);
  // The items of a subscript (`a[i, j]`: i and j).
  std::vector<const ast::Expr*> subscriptItems(const ast::Subscript* s) const;

  // ---- calls (LowerCalls.cpp) ----
  ir::Expr* call(const ast::Call* c);
  ir::Expr* spreadCall(const ast::Call* c, const ast::Call* spread);
  ir::Expr* methodCall(const ast::Attribute* method, const ast::Call* c);
  // A cast the source writes (`float32(x)`, `np.int32(x)`): `value` converted to `to`.
  ir::Expr* writtenCast(const ast::Expr* value, const NumbaType& to, SourceRange at);
  ir::Expr* namedTupleConstruction(const ast::Call* c, const sema::ConstantValue& cls,
                                   const NumbaType& t);
  ir::Expr* intrinsicCall(sema::Intrinsic id, const ast::Call* c);
  ir::Expr* print(const ast::Call* c);
  NumbaType argType(const ast::Call* c, size_t i) const {
    const NumbaType* a = typeOf(c->args[i]);
    return a != nullptr ? *a : NumbaType();
  }
  // The types numba converts the call's arguments to for the case it chose (TypeRules'
  // callArgumentTypes); nullopt, reported, when no case takes them.
  std::optional<std::vector<ScalarKind>> convertedArguments(const sema::IntrinsicInfo& info,
                                                            const ast::Call* c);
  // The call's arguments lowered, each converted to `kinds[i]`.
  std::vector<ir::Expr*> argumentsAs(const ast::Call* c, const std::vector<ScalarKind>& kinds);
  ir::IntrinsicCall* intrinsic(sema::Intrinsic id, const ast::Call* c, const NumbaType& type,
                               std::vector<ir::Expr*> args);

  // ---- intrinsic families (LowerIntrinsics.cpp) ----
  ir::Expr* intrinsicValue(sema::Intrinsic id, const ast::Expr* at, const NumbaType* t);
  ir::Expr* threadModelCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                            const NumbaType& t);
  ir::Expr* arrayConstructor(const sema::IntrinsicInfo& info, const ast::Call* c,
                             const NumbaType* t);
  ir::Expr* atomic(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  ir::Expr* warpOperation(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  ir::Expr* bitOrFloatIntrinsic(const sema::IntrinsicInfo& info, const ast::Call* c,
                                const NumbaType& t);
  ir::Expr* cmathCall(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  // A numpy ufunc: its operands as they are (the emitters convert them to the loop's types).
  ir::Expr* ufuncCall(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  ir::Expr* mathCall(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  ir::Expr* vectorConstruction(const sema::IntrinsicInfo& info, const ast::Call* c,
                               const NumbaType& t);
  ir::Expr* libdeviceCall(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);

  // ---- the IR's names ----
  ir::VersionRef versionRef(size_t version) const {
    return ir::VersionRef{scope_.versions.versions[version].variable, version};
  }

  ModuleLowering& m_;
  const sema::Specialization& spec_;
  const sema::FunctionScope& scope_;
  ir::Function& out_;
  // Each statement's IR, for the versions' joins and phi edges.
  std::unordered_map<const ast::Node*, const ir::Stmt*> statements_;
  // The `*` values of the spread call being lowered, by the binding they were evaluated into.
  std::unordered_map<const ast::Expr*, int> spreadBindings_;
  int nextBinding_ = 0;
};

} // namespace pyk::lower
