// FunctionTyper: the typing of one function body for one specialization (numba's type inference),
// shared by the files that type each family of constructs: TypeInference.cpp (the fixed point and
// the entry point), TypeStatements.cpp, TypeExpressions.cpp, TypeAccess.cpp (attributes and
// subscripts), TypeCalls.cpp (calls, device functions), and the intrinsic families
// TypeThreadModel.cpp, TypeMemory.cpp, TypeAtomics.cpp, TypeWarp.cpp, TypeMath.cpp.
// Internal to sema: the public face is TypeInference.h.
#pragma once

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "sema/catalog/Intrinsic.h"
#include "sema/fold/ConstantValue.h"
#include "sema/resolve/ResolvedModule.h"
#include "sema/typing/DatetimeRules.h"
#include "sema/typing/Specialization.h"
#include "syntax/ResultVisitor.h"

namespace pyk::sema {

using OptType = std::optional<NumbaType>;

// numba's unification of two types assigned to one variable (numbers as numpy promotes them,
// arrays to the common layout, tuples element by element); nullopt where numba cannot unify.
OptType unify(const NumbaType& a, const NumbaType& b);
// The type numba gives a folded module constant used in a kernel; nullopt for one that is no
// value there (a string, a class).
OptType typeOfConstant(const ConstantValue& v);
// `(float32, int64)`: the types, as messages list them.
std::string typeList(const std::vector<NumbaType>& types);
// A tuple of `elements`: a UniTuple when they are all one type.
NumbaType tupleOf(std::vector<NumbaType> elements);
bool isIntegerType(const NumbaType& t);
// The layout numba gives the view `base[indices]` (some of them slices).
ArrayLayout viewLayout(const NumbaType& base, const std::vector<const ast::Expr*>& indices);
// Whether numba's setitem stores `value` into the array view `view` (`a[1:3] = value`).
bool storableInView(const NumbaType& value, const NumbaType& view);
// Whether numba stores a `value` into a record's field or a record array's item of type `place`:
// a scalar into a scalar, a record of the same layout into a record, a C-contiguous array of the
// same dtype and rank into a sub-array field.
bool storableIn(const NumbaType& value, const NumbaType& place);
bool isIntegerOrBool(const NumbaType& t);

// Expressions and statements are dispatched by the visitors generated from the node list
// (syntax/ResultVisitor.h): visit<Kind> types one kind; visitExpr and visitStmt take the rest.
class FunctionTyper : private ast::ExprVisitor<FunctionTyper, OptType>,
                      private ast::StmtVisitor<FunctionTyper> {
  friend class ast::ExprVisitor<FunctionTyper, OptType>;
  friend class ast::StmtVisitor<FunctionTyper>;

public:
  // `set` receives the real specializations; `scratch` and `quiet` (shared by one whole typing
  // run) serve the quiet fixed-point passes, whose callees' types may still change. A typer
  // made for such a pass is `quietOnly`: it reports nothing and adds nothing to `set`.
  FunctionTyper(const ResolvedModule& module, Specialization& spec, SpecializationSet& set,
                SpecializationSet& scratch, DiagnosticEngine& diags, DiagnosticEngine& quiet,
                bool quietOnly, int depth)
      : module_(module), fn_(*spec.function), spec_(spec), set_(set), scratch_(scratch),
        diags_(quietOnly ? quiet : diags), realDiags_(diags), quiet_(quiet), quietOnly_(quietOnly),
        depth_(depth) {}

  // Types the body to a fixed point of its locals' types, then once more recording and
  // reporting; false when there were errors.
  bool run();

private:
  // One pass over the body: its statements, then the implicit `return None` at its end.
  void typeBody();

private:
  // ---- reporting: only in the last pass, so fixed-point iterations stay quiet ----
  void error(DiagKind kind, SourceRange range, std::vector<std::string> args = {}) {
    if (reporting_)
      diags_.report(kind, range, args);
    failed_ = true;
  }
  OptType record(const ast::Expr* e, OptType t) {
    if (t && reporting_)
      spec_.exprTypes[e] = *t;
    return t;
  }

  // ---- statements (TypeStatements.cpp) ----
  void block(const std::vector<ast::Stmt*>& body);
  void statement(const ast::Stmt* s) { StmtVisitor::visit(s); }
  void visitExprStmt(const ast::ExprStmt* s);
  void visitAssign(const ast::Assign* a);
  void visitAugAssign(const ast::AugAssign* a);
  void visitAnnAssign(const ast::AnnAssign* a);
  void visitIf(const ast::If* i);
  void visitWhile(const ast::While* w);
  void visitFor(const ast::For* loop);
  void visitReturn(const ast::Return* r);
  // A return of a value of type `value` (none for a bare `return`, or the end of the body).
  void addReturn(const NumbaType& value, SourceRange at);
  void visitAssert(const ast::Assert* a);
  // raise, pass, break, continue: nothing to type; every other statement was reported by
  // resolution as unsupported in a kernel.
  void visitStmt(const ast::Stmt*) {}
  void assign(const ast::Expr* target, const NumbaType& value, const ast::Expr* valueNode);
  // A variable (local or parameter) stored to: the version the Name makes takes the value's type.
  void assignLocal(const ast::Name* name, const NumbaType& value);
  // Sets a version's type, noting a change for the fixed point.
  void setVersionType(size_t version, const NumbaType& t);
  // The phis of a join (an `if`, a loop's head or exit): each the unification of the types that
  // flow in; `at` locates a failure to unify.
  void typePhis(const ast::Node* at, const std::vector<size_t>* phis);
  const std::vector<size_t>*
  phisOf(const std::unordered_map<const ast::Node*, std::vector<size_t>>& table,
         const ast::Node* at) const {
    auto it = table.find(at);
    return it == table.end() ? nullptr : &it->second;
  }
  // The element type a `for` over `iter` binds; nullopt (reported) when it cannot iterate.
  OptType iterationElement(const ast::Expr* iter);
  void condition(const ast::Expr* test);

  // ---- expressions (TypeExpressions.cpp) ----
  // The type of `e` used as a value, recorded for it in the last pass: an Optional is unwrapped
  // (numba's cast of an Optional to its value's type, a TypeError when it is None), noted in
  // the specialization's unwrappedOptionals for lowering.
  OptType expr(const ast::Expr* e) { return used(e, ExprVisitor::visit(e)); }
  // The type of `e` as it is, an Optional kept: a value assigned to a variable, returned, passed
  // to a device function, tested by `is None`, a branch of a conditional expression.
  OptType optionalExpr(const ast::Expr* e) { return used(e, ExprVisitor::visit(e), true); }
  OptType used(const ast::Expr* e, OptType t, bool keepOptional = false) {
    if (reporting_)
      spec_.unwrappedOptionals.erase(e);
    if (t && t->isOptional() && !keepOptional) {
      if (reporting_)
        spec_.unwrappedOptionals[e] = *t;
      return record(e, t->optionalValue());
    }
    return record(e, t);
  }
  OptType visitConstant(const ast::Constant* c);
  OptType visitName(const ast::Name* n);
  OptType visitBinOp(const ast::BinOp* b);
  // The result of `l op r` for operand types already known (a BinOp, an augmented assignment).
  // The result of numba's datetime64 / timedelta64 operation `op` (its spelling) of `l` and `r`
  // (r void for a unary one), or the error where numba has none.
  OptType datetimeResult(const std::optional<DatetimeRule>& rule, const std::string& op,
                         const NumbaType& l, const NumbaType& r, SourceRange at);
  OptType binaryOperation(ast::BinOpKind op, const NumbaType& l, const NumbaType& r,
                          SourceRange at);
  OptType visitUnaryOp(const ast::UnaryOp* u);
  OptType visitCompare(const ast::Compare* c);
  OptType visitBoolOp(const ast::BoolOp* b);
  OptType visitIfExp(const ast::IfExp* i);
  OptType visitTuple(const ast::Tuple* t);
  OptType visitNamedExpr(const ast::NamedExpr* n);
  // `*x` anywhere but among a call's arguments (spreadCall): not supported, located.
  OptType visitStarred(const ast::Starred* s);
  // Lists, dicts, comprehensions, lambdas...: resolution reported them already.
  OptType visitExpr(const ast::Expr*) {
    failed_ = true;
    return std::nullopt;
  }
  // The folded value of `e` (shapes, `cuda.grid`'s rank, heterogeneous tuple indices); `what`
  // names it in the error when it is not a constant.
  std::optional<ConstantValue> constant(const ast::Expr* e, const char* what);

  // ---- attributes and subscripts (TypeAccess.cpp) ----
  OptType visitAttribute(const ast::Attribute* a);
  // The type of a member of an Enum class (its EnumMember type) or of an imported module.
  OptType memberType(const ast::Expr* e, const ConstantValue& member);
  // x.real / x.imag (and numpy.real / numpy.imag): a number's part, a complex array's float view.
  OptType realOrImag(const NumbaType& base, bool imaginary, SourceRange at);
  // A record's field (reported when it has no type pyk can give), and a field of every record of
  // a record array (numba's view of layout A).
  OptType recordField(const NumbaType& record, const std::string& name, SourceRange at);
  OptType recordArrayField(const NumbaType& array, const std::string& name, SourceRange at);
  // The record field `target` (`r.y`, `r['y']`) names, typing its record when `typeBase`; null
  // when it names none.
  const RecordField* recordFieldTarget(const ast::Expr* target, bool typeBase);
  // `r.y = 'ABC'` into a character field (typed here: strings have no numba type of their own
  // in pyk); false when the assignment is not one.
  // `a[i] = "XYZ"` / `b"XYZ"` into an item of a character array (numba's constant cast to
  // UnicodeCharSeq / CharSeq): typed here, the constant as the item's type; false for any other
  // assignment.
  bool stringIntoCharacterArray(const ast::Assign* a);
  bool stringIntoRecordField(const ast::Assign* a);
  OptType visitSubscript(const ast::Subscript* s);

  // ---- calls (TypeCalls.cpp) ----
  OptType visitCall(const ast::Call* c);
  // A call with `*tuple` arguments: typed as the call of the tuple's elements (spreadCalls).
  OptType spreadCall(const ast::Call* c);
  OptType methodCall(const ast::Attribute* method, const ast::Call* c);
  // A call of a variable whose type is a function (an intrinsic or a device function).
  OptType functionValueCall(const NumbaType& callee, const ast::Call* c);
  OptType deviceCall(const CompiledFunction& callee, const ast::Call* c,
                     const std::vector<NumbaType>& args);
  // A device function's call as Python binds it (TypeCallArguments.cpp): keywords, defaults and
  // `*args` put in the callee's parameter order, typed as the call that passes exactly those (a
  // node spreadCalls maps the call to); std::nullopt when the call already does; an empty
  // OptType when the arguments do not bind (reported).
  std::optional<OptType> boundDeviceCall(const CompiledFunction& callee, const ast::Call* c);
  // A call of a function of CUDA C++ declared with cuda.declare_device.
  OptType foreignCall(const ast::Call* c, const ConstantValue& declared);
  OptType namedTupleConstruction(const ast::Call* c, const ConstantValue& cls);
  // The types of the call's positional arguments; `keepOptionals` for a device function's call,
  // which numba specializes for an Optional argument (an intrinsic's takes its value).
  std::optional<std::vector<NumbaType>> arguments(const ast::Call* c, bool keepOptionals = false);
  // A call of an intrinsic: dispatched on its typing rule to the family that types it.
  OptType intrinsicCall(Intrinsic id, const ast::Call* c);
  // A scalar type object called (`float32(x)`, `np.int32(x)`): numba's cast.
  OptType castCall(const NumbaType& target, const ast::Call* c, const std::vector<NumbaType>& args);
  // A call whose arguments numba does not accept, reported as such.
  OptType badArguments(std::string_view function, const ast::Call* c,
                       const std::vector<NumbaType>& args);

  // ---- intrinsic families ----
  // An intrinsic read as a value (`cuda.threadIdx.x`, `math.pi`); nullopt for a function or
  // module, which has no value of its own (TypeThreadModel.cpp).
  OptType intrinsicValue(Intrinsic id);
  // cuda.grid / gridsize, cuda.cg.this_grid, barriers and fences (TypeThreadModel.cpp).
  OptType gridIndex(const IntrinsicInfo& info, const ast::Call* c);
  OptType thisGrid(const IntrinsicInfo& info, const ast::Call* c);
  OptType threadModelCall(const IntrinsicInfo& info, const ast::Call* c,
                          const std::vector<NumbaType>& args);
  // cuda.shared.array, cuda.local.array, cuda.const.array_like; dtypes (TypeMemory.cpp).
  OptType arrayConstructor(const IntrinsicInfo& info, const ast::Call* c);
  OptType builtinSum(const ast::Call* c, const std::vector<NumbaType>& args);
  // Checks `alignment=` of a shared or local array (reported when invalid).
  bool arrayAlignment(const ast::Expr* e);
  // The element type a dtype argument names: a scalar, or a record for a structured dtype.
  OptType dtype(const ast::Expr* e);
  // cuda.atomic.* (TypeAtomics.cpp).
  OptType atomic(const IntrinsicInfo& info, const ast::Call* c, const std::vector<NumbaType>& args);
  OptType cacheHint(const IntrinsicInfo& info, const ast::Call* c,
                    const std::vector<NumbaType>& args);
  // Lane masks, votes, ballots, shuffles, matches (TypeWarp.cpp).
  OptType warpOperation(const IntrinsicInfo& info, const ast::Call* c,
                        const std::vector<NumbaType>& args);
  // math, cmath, the numeric builtins, the bit and float intrinsics (TypeMath.cpp).
  OptType mathCall(const IntrinsicInfo& info, const ast::Call* c,
                   const std::vector<NumbaType>& args);
  OptType cmathCall(const IntrinsicInfo& info, const ast::Call* c,
                    const std::vector<NumbaType>& args);
  // numpy's ufuncs on scalars and arrays (TypeUfuncs.cpp).
  OptType ufuncCall(const IntrinsicInfo& info, const ast::Call* c,
                    const std::vector<NumbaType>& args);
  // numba.cuda's vector types: construction, and the members x, y, z, w (TypeVectors.cpp).
  OptType vectorConstruction(const IntrinsicInfo& info, const ast::Call* c,
                             const std::vector<NumbaType>& args);
  OptType vectorMember(const NumbaType& vector, const ast::Attribute* a);

  // The intrinsic `e` denotes, or None.
  Intrinsic intrinsicOf(const ast::Expr* e) const { return sema::intrinsicOf(fn_.scope, e); }
  // The qualified name of an API reference (`numba.cuda.grid`, `range`), or "": for messages
  // and the catalog's type objects.
  std::string apiName(const ast::Expr* e) const { return qualifiedApiName(fn_.scope, e); }

  const ResolvedModule& module_;
  const CompiledFunction& fn_;
  Specialization& spec_;
  SpecializationSet& set_;
  SpecializationSet& scratch_;
  DiagnosticEngine& diags_;
  DiagnosticEngine& realDiags_;
  DiagnosticEngine& quiet_;
  bool quietOnly_;
  int depth_;
  bool reporting_ = false;
  bool changed_ = false;
  bool returnWidened_ = false; // this pass widened the return type a recursive call sees
  bool failed_ = false;
  std::optional<NumbaType> returnType_;
  // The calls boundDeviceCall made, which pass one argument per parameter already.
  std::unordered_set<const ast::Call*> boundCalls_;
};

} // namespace pyk::sema
