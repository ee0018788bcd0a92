// UnitEmitter: a typed specialization (and the device functions it calls) as one C++ translation
// unit for a backend, readable, with `#line` directives back to the .pyk source.
//
// Every expression is emitted as C++ whose type is exactly its numba type: operands are cast to
// the type numba computes in (TypeRules) before each operation, and Python's semantics that C++
// lacks (floor division, modulo, powers, rounding, negative indices) come from pyk_support.h.
// What differs between backends is asked of a TargetSpelling. Each family of constructs is
// emitted by a file of its own: EmitFunctions.cpp (functions, ufunc and gufunc kernels),
// EmitTypes.cpp (C++ types, records, tuples, casts), EmitStatements.cpp, EmitLoops.cpp,
// EmitExpressions.cpp, EmitAccess.cpp (attributes, subscripts, array views), EmitCalls.cpp
// (calls and the dispatch of intrinsics), and the intrinsic families EmitThreadModel.cpp,
// EmitMemory.cpp, EmitAtomics.cpp, EmitWarp.cpp, EmitMath.cpp, EmitVectors.cpp.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/CppNames.h"
#include "codegen/NonNegativeAnalysis.h"
#include "codegen/TargetSpelling.h"
#include "codegen/VariableStorage.h"
#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "sema/LibraryModule.h"
#include "sema/ResolvedModule.h"
#include "sema/Specialization.h"
#include "syntax/ResultVisitor.h"

namespace pyk::codegen {

using sema::NumbaType;
using sema::ScalarKind;
using sema::Specialization;

// Expressions (with their type) and statements are dispatched by the visitors generated from the
// node list (syntax/ResultVisitor.h): visit<Kind> emits one kind; visitExpr and visitStmt report
// the rest as not supported.
class UnitEmitter : private ast::ExprVisitor<UnitEmitter, std::string, const NumbaType*>,
                    private ast::StmtVisitor<UnitEmitter> {
  friend class ast::ExprVisitor<UnitEmitter, std::string, const NumbaType*>;
  friend class ast::StmtVisitor<UnitEmitter>;

public:
  UnitEmitter(const sema::ResolvedModule& module, const SourceFile& file, DiagnosticEngine& diags,
              const TargetSpelling& target)
      : module_(module), file_(file), diags_(diags), target_(target) {}

  // The C++ type of a numba type (EmitTypes.cpp).
  std::string type(const NumbaType& t);
  // Whether code generation has a C++ type for `t`.
  static bool supported(const NumbaType& t);

  void function(const Specialization& spec, bool entry);
  // numba's CUDA ufunc kernel around a @vectorize scalar function: one thread per element,
  // `i = grid(1); if i < n: out[i] = f(a[i], b[i], ...)`, over strided 1-D arrays (broadcast
  // operands have stride 0). Returns the kernel's name.
  std::string vectorizeKernel(const Specialization& scalar);
  // numba's CUDA gufunc kernel around a @guvectorize core function: one thread per index of the
  // (single) loop dimension; each array argument passes its [i] view, each scalar its [i].
  std::string guvectorizeKernel(const Specialization& core);
  // The whole unit: the support header, tuple structs and constant arrays, forward declarations
  // of the device functions (recursion), then the functions.
  std::string finish(const std::string& declarations);
  bool failed() const { return failed_; }
  // The C++ types of the entry kernel's parameters, in order (what the CPU entry points unpack).
  const std::vector<std::string>& entryParameterTypes() const { return entryParameterTypes_; }
  // Bytes of static shared memory the unit's shared arrays take (their offsets are below it).
  int64_t staticSharedBytes() const { return sharedBytes_; }
  const TargetSpelling& target() const { return target_; }

  // Every specialization `entry` reaches through calls, `entry` first.
  static std::vector<const Specialization*> reachedFrom(const Specialization& entry);
  // Forward declarations of the reached device functions, then every reached function (callees
  // first); the entry's own function is emitted as a kernel (`entry` true).
  std::string functions(const Specialization& entry,
                        const std::vector<const Specialization*>& reached);

  // ---- for backends that restructure a kernel's body (the CPU backend's barrier split) ----
  void beginSpecialization(const Specialization& spec) {
    spec_ = &spec;
    storage_ = VariableStorage(spec);
  }
  // Locals kept per thread, spelt `name[pyk_tid]`.
  void setPerThreadVariables(std::set<std::string> names) { perThread_ = std::move(names); }
  // What a `return` of the kernel becomes ("return;" by default).
  void setThreadExit(std::string statement) { threadExit_ = std::move(statement); }
  // Every array access checked (PYK_BOUNDSCHECK): the target spells the check.
  void setBoundsCheck(bool on) { boundsCheck_ = on; }
  void emitStatements(const std::vector<const ast::Stmt*>& body) {
    for (const ast::Stmt* s : body)
      statement(s);
  }
  std::string condition(const ast::Expr* e) { return truthy(e); }
  std::string valueAs(const ast::Expr* e, const NumbaType& to) { return castTo(e, to); }
  const NumbaType* typeOfExpr(const ast::Expr* e) const { return typeOf(e); }
  void emitLine(const std::string& text) { line(text); }
  void emitLineDirective(const ast::Node* n) { lineDirective(n); }
  void indent(int delta) { indent_ += delta; }
  void appendBody(const std::string& text) { body_ << text; }
  // The declaration of local `i` of the current specialization ("" if it has no value).
  std::string localDeclaration(size_t i);
  bool usesGridSync() const { return usesGridSync_; }
  void setLineDirectives(bool on) { lineDirectives_ = on; }
  void reportUnsupported(SourceRange r, const std::string& what) { unsupported(r, what); }

private:
  // ---- output and bookkeeping (EmitFunctions.cpp) ----
  void line(const std::string& text) {
    body_ << std::string(static_cast<size_t>(indent_) * 2, ' ') << text << '\n';
  }
  void lineDirective(const ast::Node* n);
  std::string temp(const std::string& hint) {
    return "pyk_t" + std::to_string(temps_++) + "_" + hint;
  }
  void unsupported(SourceRange r, const std::string& what);
  // The message of a kernel stopped at `at` ("FILE:LINE:COL: in `kernel`: what"), escaped for a
  // C string literal (TargetSpelling::trapWith).
  std::string stopMessage(const ast::Node* at, const std::string& what) const;
  // The hidden context parameter and argument, followed by ", " when more come.
  std::string contextParameterList(bool more = true) const;
  std::string contextArgumentList(bool more) const;
  // The module that defines the function being emitted (a stdlib module for its functions) and
  // the path of its source.
  const sema::ResolvedModule& definingModule() const {
    return spec_->function->library != nullptr ? spec_->function->library->resolved : module_;
  }
  std::string sourcePath() const {
    return spec_->function->library != nullptr ? spec_->function->library->file.path()
                                               : file_.path();
  }

  // ---- types (EmitTypes.cpp) ----
  // An array's item type in C++: the scalar, or the record's struct; and its size in bytes.
  std::string elementCpp(const NumbaType& array);
  static int64_t itemBytes(const NumbaType& array);
  // Whether a record field sits at a multiple of its C++ alignment (numba's CUDA target refuses
  // to access a field that does not: "is not aligned").
  static bool recordFieldAligned(const sema::RecordField& f);
  // A struct per record type whose members sit at the dtype's offsets.
  std::string recordStruct(const NumbaType& t);
  // A struct per tuple type: `e[N]` for a UniTuple (indexable at run time), `e0, e1...` else.
  std::string tupleStruct(const NumbaType& t);
  // `T{{a, b}}` for a UniTuple struct (its array member), `T{a, b}` for the others.
  std::string tupleValue(const NumbaType& t, const std::vector<std::string>& elements);
  std::string element(const NumbaType& tuple, const std::string& value, size_t i);
  std::string cast(const std::string& code, const NumbaType& from, const NumbaType& to);
  std::string castTo(const ast::Expr* e, const NumbaType& to) {
    return cast(expr(e), *typeOf(e), to);
  }
  std::string castScalar(const ast::Expr* e, ScalarKind to) {
    return castTo(e, NumbaType::scalar(to));
  }

  // ---- statements (EmitStatements.cpp, EmitLoops.cpp) ----
  void block(const std::vector<ast::Stmt*>& body);
  // One statement; a statement that must do something but emitted nothing is reported as pyk's
  // bug (never an empty result).
  void statement(const ast::Stmt* s);
  void visitExprStmt(const ast::ExprStmt* s);
  void visitAssign(const ast::Assign* a);
  // `r.y = 'ABC'` into a character field, stored character by character; false when `a` is not
  // such an assignment.
  bool stringIntoRecordField(const ast::Assign* a);
  void visitAugAssign(const ast::AugAssign* a);
  void visitAnnAssign(const ast::AnnAssign* a);
  void visitIf(const ast::If* i);
  void visitWhile(const ast::While* w);
  void visitFor(const ast::For* loop);
  void visitReturn(const ast::Return* r);
  void visitPass(const ast::Pass*) {}
  void visitBreak(const ast::Break* b);
  void visitContinue(const ast::Continue* c);
  // assert and raise: effective with debug=True.
  void visitAssert(const ast::Assert* a) { debugCheck(a); }
  void visitRaise(const ast::Raise* r) { debugCheck(r); }
  void debugCheck(const ast::Stmt* s);
  void visitStmt(const ast::Stmt* s);
  // A local or parameter as read and written: `py_x`, or `py_x[pyk_tid]` when kept per thread.
  std::string variable(const std::string& name) const {
    return perThread_.count(name) ? pythonName(name) + "[pyk_tid]" : pythonName(name);
  }
  // The C++ variable that holds a version (VariableStorage), as read and written.
  std::string slotVariable(const StorageSlot& slot, sema::VariableId variable) const {
    const std::string& name = spec_->function->scope.variableName(variable);
    return &slot == &storage_.slotsOf(variable).front() ? this->variable(name) : slot.cppName;
  }
  // The copies into phis held in other C++ variables that a control-flow edge makes.
  void edgeCopies(sema::PhiEdge edge, const ast::Node* at);
  void assign(const ast::Expr* target, const std::string& value, const NumbaType& valueType);
  // `a[1:3] = value`: a scalar into every item of the view, or an array broadcast onto it.
  void storeInView(const ast::Subscript* target, const NumbaType& view, const std::string& value,
                   const NumbaType& valueType);
  // `value` stored in a record's field `place` (emitted) of type `placeType`: a scalar converted,
  // a nested record's or a sub-array's contents copied.
  void storeInRecord(const std::string& place, const NumbaType& placeType, const std::string& value,
                     const NumbaType& valueType);
  void forLoopBody(const ast::For* loop);
  void rangeLoop(const ast::For* loop, const ast::Call* range);
  // What a `for` iterates over: its trip count and its i-th item (C++ text), of type `type`;
  // the iterable's temporaries are declared on the way. Not `ok` for what typing refused.
  struct Iteration {
    std::string length;
    std::function<std::string(const std::string&)> item;
    NumbaType type;
    bool ok = false;
  };
  Iteration iteration(const ast::Expr* iter);
  // A loop over anything but a top-level `range`: tuples, arrays, enumerate, zip.
  void iterationLoop(const ast::For* loop);
  // For a loop whose normal end runs code a `break` skips (its `else`, copies into the phis
  // after it): the flag its `break` sets, declared; "" for a loop without such code. Also the
  // copies on the way into the loop.
  std::string loopEntry(const ast::Stmt* loop, const std::vector<ast::Stmt*>& orelse);
  // A loop's normal end: its `else` and copies, unless it ended with `break`.
  void loopExit(const ast::Stmt* loop, const std::string& flag,
                const std::vector<ast::Stmt*>& orelse);

  // ---- expressions (EmitExpressions.cpp) ----
  const NumbaType* typeOf(const ast::Expr* e) const { return spec_->typeOf(e); }
  std::string expr(const ast::Expr* e);
  // The `*` values of the spread call being emitted, by the name they were evaluated into.
  std::unordered_map<const ast::Expr*, std::string> spreadValues_;
  std::string visitConstant(const ast::Constant* c, const NumbaType* t);
  std::string visitName(const ast::Name* n, const NumbaType* t);
  std::string visitBinOp(const ast::BinOp* b, const NumbaType* t);
  std::string visitIfExp(const ast::IfExp* i, const NumbaType* t);
  std::string visitTuple(const ast::Tuple* tuple, const NumbaType* t);
  std::string visitCall(const ast::Call* c, const NumbaType*) { return call(c); }
  std::string visitExpr(const ast::Expr* e, const NumbaType* t);
  std::string truthy(const ast::Expr* e);
  std::string binary(ast::BinOpKind op, const ast::Expr* l, const ast::Expr* r,
                     const NumbaType& result, SourceRange at);
  // An operand already emitted, with its type.
  struct Operand {
    std::string code;
    NumbaType type;
  };
  std::string binary(ast::BinOpKind op, const Operand& l, const Operand& r, const NumbaType& result,
                     SourceRange at);
  std::string visitUnaryOp(const ast::UnaryOp* u, const NumbaType* t);
  std::string unary(ast::UnaryOpKind op, const ast::Expr* operand, const NumbaType* t);
  std::string visitCompare(const ast::Compare* c, const NumbaType* t);
  // One comparison `left OP right`, in the type numba compares the two in.
  std::string comparison(ast::CmpOpKind op, const ast::Expr* left, const ast::Expr* right,
                         SourceRange at);
  std::string visitBoolOp(const ast::BoolOp* b, const NumbaType* t);
  std::string constantValue(const sema::ConstantValue& v, const NumbaType& t, SourceRange at);
  // A module array of records frozen into the unit (once), as a view of type `t`.
  std::string constantRecordArray(const sema::ConstantArray& a, const NumbaType& t);
  // An element of a frozen module array, in its dtype's C++.
  std::string constantElement(const sema::ConstantValue& x, ScalarKind dtype);
  // A C-contiguous view of `shape` over `storage`.
  std::string arrayView(const std::string& storage, const NumbaType& t,
                        const std::vector<int64_t>& shape);
  // `e` folded to an integer or a tuple of them (empty when it is not constant).
  std::vector<int64_t> constantShape(const ast::Expr* e);

  // ---- attributes and subscripts (EmitAccess.cpp) ----
  std::string visitAttribute(const ast::Attribute* a, const NumbaType* t);
  std::string visitSubscript(const ast::Subscript* s, const NumbaType* t);
  // `value.real` / `.imag` of a number or a complex array (a float view), `value` of type `base`.
  std::string realOrImag(const std::string& value, const NumbaType& base, bool imaginary);
  std::string arrayViewOf(const ast::Subscript* s, const NumbaType& base, const NumbaType& t,
                          const std::vector<const ast::Expr*>& items);
  // A record's field `name` (`record` has type `recordType`), and the field of every record of a
  // record array as a view of type `t`.
  std::string recordField(const ast::Expr* record, const NumbaType& recordType,
                          const std::string& name, SourceRange at);
  std::string recordArrayField(const ast::Expr* array, const NumbaType& arrayType,
                               const NumbaType& t, const std::string& name);
  // The element of `array` at `indices` (already emitted), checked when bounds checking is on,
  // and on the CPU backend always for the dynamic shared array.
  std::string arrayElement(const ast::Expr* array, const std::string& indices);
  // The locals of the current specialization holding the dynamic shared array or a view of it.
  const std::set<size_t>& dynamicSharedLocals();
  // One index of an array access: a signed index known to be non-negative goes through
  // `pyk::nonneg`, so the access skips Python's wrap of negative indices.
  std::string arrayIndex(const ast::Expr* item);

  // ---- calls (EmitCalls.cpp) ----
  std::string call(const ast::Call* c);
  std::string methodCall(const ast::Attribute* method, const ast::Call* c);
  std::string namedTupleConstruction(const ast::Call* c, const sema::ConstantValue& cls,
                                     const NumbaType& t);
  std::string intrinsicCall(sema::Intrinsic id, const ast::Call* c);
  std::string print(const ast::Call* c);
  // The type of argument `i` (void when typing left it without one).
  NumbaType argType(const ast::Call* c, size_t i) const {
    const NumbaType* a = typeOf(c->args[i]);
    return a != nullptr ? *a : NumbaType();
  }

  // ---- intrinsic families ----
  // A value or constant read (`cuda.threadIdx.x`, `math.pi`) (EmitThreadModel.cpp).
  std::string intrinsicValue(sema::Intrinsic id, const ast::Expr* at);
  // An intrinsic's spelling for this backend.
  std::string spelled(sema::Intrinsic id) const {
    return std::string(target_.spelling(sema::intrinsicInfo(id)));
  }
  // `blockIdx.x * blockDim.x + threadIdx.x` as int64.
  std::string globalThreadIndex() const;
  // `blockIdx * blockDim + threadIdx` on axis `d`, as numba's int64.
  std::string globalIndexOnAxis(int d) const;
  // Axis of `b` when it is `cuda.blockIdx.d * cuda.blockDim.d + cuda.threadIdx.d` written out (in
  // any order of the operands), else -1.
  int writtenGlobalIndexAxis(const ast::BinOp* b) const;
  std::string gridIndex(const sema::IntrinsicInfo& info, const NumbaType& t);
  std::string threadModelCall(const sema::IntrinsicInfo& info, const ast::Call* c);
  // cuda.shared.array, local.array, const.array_like (EmitMemory.cpp).
  std::string arrayConstructor(const sema::IntrinsicInfo& info, const ast::Call* c,
                               const NumbaType* t);
  // The offset of the shared array `call` makes in the specialization being emitted: placed
  // (16-byte aligned) the first time, the same however often the call is emitted (the CPU
  // backend emits some statements more than once).
  int64_t sharedOffsetOf(const ast::Call* call, int64_t bytes);
  std::string atomic(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  std::string warpOperation(const sema::IntrinsicInfo& info, const ast::Call* c,
                            const NumbaType& t);
  std::string bitOrFloatIntrinsic(const sema::IntrinsicInfo& info, const ast::Call* c,
                                  const NumbaType& t);
  std::string cmathCall(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  std::string mathCall(const sema::IntrinsicInfo& info, const ast::Call* c, const NumbaType& t);
  // A numba.cuda vector type's constructor: the elements of its arguments in order
  // (EmitVectors.cpp).
  std::string vectorConstruction(const ast::Call* c, const NumbaType& t);
  // numba.cuda.libdevice.<f>: __nv_<f> on CUDA, pyk::libdevice::<f> on the CPU; what it writes
  // through pointers returned as the tuple numba types it as.
  std::string libdeviceCall(const sema::IntrinsicInfo& info, const ast::Call* c,
                            const NumbaType& t);

  const sema::ResolvedModule& module_;
  const SourceFile& file_;
  DiagnosticEngine& diags_;
  const TargetSpelling& target_;
  const Specialization* spec_ = nullptr;
  std::ostringstream prelude_;
  std::ostringstream body_;
  std::set<std::string> tuples_;
  std::set<std::string> reported_;
  // Each module array frozen once per unit, however often it is used.
  std::map<const sema::ConstantArray*, std::string> constantArrays_;
  int indent_ = 0;
  int temps_ = 0;
  // Per enclosing loop: the flag its `break` sets when the loop has an `else`, or "".
  std::vector<std::string> breakFlags_;
  std::vector<std::string> entryParameterTypes_;
  int64_t sharedBytes_ = 0;
  std::map<std::pair<const Specialization*, const ast::Call*>, int64_t> sharedOffsets_;
  std::set<std::string> perThread_;
  std::map<const Specialization*, NonNegativeAnalysis> nonNegative_;
  // Which C++ variable holds each version of the function being emitted.
  VariableStorage storage_;
  std::map<const Specialization*, std::set<size_t>> dynamicSharedLocals_;
  std::string threadExit_ = "return;";
  bool boundsCheck_ = false;
  bool failed_ = false;
  bool usesGridSync_ = false;
  bool lineDirectives_ = true;
};

} // namespace pyk::codegen
