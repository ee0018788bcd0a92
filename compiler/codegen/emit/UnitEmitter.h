// UnitEmitter: the typed IR of a specialization (and of the device functions it calls) as one C++
// translation unit for a backend, readable, with `#line` directives back to the .pyk source.
//
// Every expression is emitted as C++ whose type is exactly its numba type: the IR's casts are
// numba's conversions, and Python's semantics that C++ lacks (floor division, modulo, powers,
// rounding, negative indices) come from pyk_support.h. What differs between backends is asked of
// a TargetSpelling. Each family of constructs is emitted by a file of its own:
// EmitFunctions.cpp (functions, ufunc and gufunc kernels), EmitTypes.cpp (C++ types, records,
// tuples, casts), EmitStatements.cpp, EmitLoops.cpp, EmitExpressions.cpp, EmitAccess.cpp
// (records, tuples, array items and views), EmitCalls.cpp (calls and the dispatch of intrinsics),
// and the intrinsic families EmitThreadModel.cpp, EmitMemory.cpp, EmitAtomics.cpp, EmitWarp.cpp,
// EmitMath.cpp, EmitVectors.cpp.
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/cpu/BlockPrefetch.h"
#include "codegen/cpu/DeferredAtomics.h"
#include "codegen/emit/NonNegativeAnalysis.h"
#include "codegen/emit/VariableStorage.h"
#include "codegen/spelling/CppNames.h"
#include "codegen/spelling/TargetSpelling.h"
#include "diag/DiagnosticEngine.h"
#include "ir/IrVisitor.h"

namespace pyk::codegen {

using types::NumbaType;
using types::ScalarKind;

// Expressions and statements are dispatched by the IR's visitors (ir/IrVisitor.h): visit<Kind>
// emits one kind.
class UnitEmitter
    : private ir::ExprVisitor<UnitEmitter, std::string>,
      private ir::StmtVisitor<UnitEmitter>,
      private ir::TargetVisitor<UnitEmitter, void, const std::string&, const NumbaType&> {
  friend class ir::Visitor<UnitEmitter, ir::Expr, std::string>;
  friend class ir::Visitor<UnitEmitter, ir::Stmt, void>;
  friend class ir::Visitor<UnitEmitter, ir::Target, void, const std::string&, const NumbaType&>;

public:
  UnitEmitter(const ir::Module& module, DiagnosticEngine& diags, const TargetSpelling& target)
      : module_(module), diags_(diags), target_(target) {}

  // The C++ type of a numba type (EmitTypes.cpp).
  std::string type(const NumbaType& t);
  // Whether code generation has a C++ type for `t`.
  static bool supported(const NumbaType& t);

  void function(const ir::Function& f, bool entry);
  // numba's CUDA ufunc kernel around a @vectorize scalar function: one thread per element,
  // `i = grid(1); if i < n: out[i] = f(a[i], b[i], ...)`, over strided 1-D arrays (broadcast
  // operands have stride 0). Returns the kernel's name.
  std::string vectorizeKernel(const ir::Function& scalar);
  // numba's CUDA gufunc kernel around a @guvectorize core function: one thread per index of the
  // (single) loop dimension; each array argument passes its [i] view, each scalar its [i].
  std::string guvectorizeKernel(const ir::Function& core);
  // The whole unit: the support header, tuple structs and constant arrays, forward declarations
  // of the device functions (recursion), then the functions.
  std::string finish(const std::string& declarations);
  bool failed() const { return failed_; }
  // The C++ types of the entry kernel's parameters, in order (what the CPU entry points unpack).
  const std::vector<std::string>& entryParameterTypes() const { return entryParameterTypes_; }
  // Bytes of static shared memory the unit's shared arrays take (their offsets are below it).
  int64_t staticSharedBytes() const { return sharedBytes_; }
  const TargetSpelling& target() const { return target_; }

  // Forward declarations of the module's device functions, then every function (callees
  // first); the entry's own function is emitted as a kernel.
  std::string functions();

  // ---- for backends that restructure a kernel's body (the CPU backend's barrier split) ----
  void beginFunction(const ir::Function& f) {
    fn_ = &f;
    storage_ = VariableStorage(f);
  }
  // Locals kept per thread, spelt `name[pyk_tid]`.
  void setPerThreadVariables(std::set<std::string> names) { perThread_ = std::move(names); }
  // What a `return` of the kernel becomes ("return;" by default).
  void setThreadExit(std::string statement) { threadExit_ = std::move(statement); }
  // A split kernel's reduction step: the C++ value a barrier with a value (`syncthreads_count`)
  // is emitted as, the block's result already computed; "" for the backend's own call.
  void setBlockReductionValue(std::string value) { blockReductionValue_ = std::move(value); }
  // Every array access checked (PYK_BOUNDSCHECK): the target spells the check.
  void setBoundsCheck(bool on) { boundsCheck_ = on; }
  void emitStatements(const std::vector<const ir::Stmt*>& body) {
    for (const ir::Stmt* s : body)
      statement(s);
  }
  // Comparisons the code emitted from now on spells `true` (a split region's tests that hold for
  // every thread of a block); empty: none.
  void setKnownTrue(std::set<const ir::Expr*> tests) { knownTrue_ = std::move(tests); }
  // The `break`s and `continue`s of grid-stride loops a split kernel's block runs in lockstep,
  // each with the C++ it is emitted as inside a thread loop's body (the end of the thread's
  // round, `return` from the body; a break also marks the thread done with the loop).
  void setRoundJumps(std::map<const ir::Stmt*, std::string> jumps) {
    roundJumps_ = std::move(jumps);
  }
  const std::map<const ir::Stmt*, std::string>& roundJumps() const { return roundJumps_; }
  // The copies the join after `if` i makes when its `then` (or else) branch ran.
  void emitJoinCopies(const ir::If* i, bool then) {
    edgeCopies(then ? sema::PhiEdge::IfThen : sema::PhiEdge::IfElse, i);
  }
  std::string condition(const ir::Expr* e) { return expr(e); }
  std::string valueAs(const ir::Expr* e, const NumbaType& to) { return castTo(e, to); }
  void emitLine(const std::string& text) { line(text); }
  void emitLineDirective(const ir::Node* n) { lineDirective(n); }
  void indent(int delta) { indent_ += delta; }
  void appendBody(const std::string& text) { body_ << text; }
  // A block entry's first statement where `kernel` (the function it runs) has gathered atomics:
  // the comment naming them, and the launch's check that no other array argument overlaps them
  // (`argumentNames`: the entry's C++ names of the parameters).
  void decideDeferral(const ir::Function& kernel, const std::vector<std::string>& argumentNames);
  // A block entry's hints for the blocks its worker runs next: the arrays `kernel` reads at the
  // grid index (codegen/cpu/BlockPrefetch.h).
  void prefetchAhead(const ir::Function& kernel, const std::vector<std::string>& argumentNames);
  // The declaration of variable `v` of the current function ("" if it has no value).
  // `T name` of each C++ variable of `v` (one per type its versions take), the first first.
  std::vector<std::string> variableDeclarations(sema::VariableId v);
  bool usesGridSync() const { return usesGridSync_; }
  // Whether some thread may end before the kernel's end other than by returning from it (an
  // Optional that is None used as a value: numba's TypeError ends the thread).
  bool endsThreadsEarly() const { return endsThreadsEarly_; }
  void setLineDirectives(bool on) { lineDirectives_ = on; }
  void reportUnsupported(SourceRange r, const std::string& what) { unsupported(r, what); }

private:
  using ExprVisitor = ir::ExprVisitor<UnitEmitter, std::string>;
  using StmtVisitor = ir::StmtVisitor<UnitEmitter>;
  using TargetVisitor = ir::TargetVisitor<UnitEmitter, void, const std::string&, const NumbaType&>;

  // ---- output and bookkeeping (EmitFunctions.cpp) ----
  void line(const std::string& text) {
    body_ << std::string(static_cast<size_t>(indent_) * 2, ' ') << text << '\n';
  } // Several lines, one per '\n'.
  void lines(const std::string& text) {
    for (size_t begin = 0; begin <= text.size();) {
      const size_t end = std::min(text.find('\n', begin), text.size());
      line(text.substr(begin, end - begin));
      begin = end + 1;
    }
  }

  void lineDirective(const ir::Node* n);
  std::string temp(const std::string& hint) {
    return "pyk_t" + std::to_string(temps_++) + "_" + hint;
  }
  void unsupported(SourceRange r, const std::string& what);
  // The message of a kernel stopped at `at` ("FILE:LINE:COL: in `kernel`: what"), escaped for a
  // C string literal (TargetSpelling::trapWith).
  std::string stopMessage(const ir::Node* at, const std::string& what) const;
  // The hidden context parameter and argument, followed by ", " when more come.
  std::string contextParameterList(bool more = true) const;
  std::string contextArgumentList(bool more) const;

  // ---- types (EmitTypes.cpp) ----
  // An array's item type in C++: the scalar, or the record's struct; and its size in bytes.
  std::string elementCpp(const NumbaType& array);
  static int64_t itemBytes(const NumbaType& array);
  // Whether a record field sits at a multiple of its C++ alignment (numba's CUDA target refuses
  // to access a field that does not: "is not aligned").
  static bool recordFieldAligned(const types::RecordField& f);
  // A complex field at an offset no multiple of its alignment: stored as pyk::Unaligned bytes.
  static bool unalignedComplex(const types::RecordField& f);
  // A struct per record type whose members sit at the dtype's offsets.
  std::string recordStruct(const NumbaType& t);
  // A struct per tuple type: `e[N]` for a UniTuple (indexable at run time), `e0, e1...` else.
  std::string tupleStruct(const NumbaType& t);
  // `T{{a, b}}` for a UniTuple struct (its array member), `T{a, b}` for the others.
  std::string tupleValue(const NumbaType& t, const std::vector<std::string>& elements);
  std::string element(const NumbaType& tuple, const std::string& value, size_t i);
  std::string cast(const std::string& code, const NumbaType& from, const NumbaType& to);
  std::string castTo(const ir::Expr* e, const NumbaType& to) { return cast(expr(e), e->type, to); }

  // ---- statements (EmitStatements.cpp, EmitLoops.cpp) ----
  void block(const std::vector<ir::Stmt*>& body);
  // One statement; a statement that must do something but emitted nothing is reported as pyk's
  // bug (never an empty result).
  void statement(const ir::Stmt* s);
  void visitEvaluate(const ir::Evaluate* s);
  void visitNop(const ir::Nop*) {}
  void visitAssign(const ir::Assign* a);
  void visitStore(const ir::Store* s);
  void visitStoreCharacters(const ir::StoreCharacters* s);
  void visitIf(const ir::If* i);
  void visitWhile(const ir::While* w);
  void visitForRange(const ir::ForRange* loop);
  void visitForEach(const ir::ForEach* loop);
  void visitReturn(const ir::Return* r);
  void visitBreak(const ir::Break* b);
  void visitContinue(const ir::Continue* c);
  void visitCheck(const ir::Check* c);
  // A local or parameter as read and written: `py_x`, or `py_x[pyk_tid]` when kept per thread.
  std::string variable(const std::string& name) const {
    return perThread_.count(name) ? pythonName(name) + "[pyk_tid]" : pythonName(name);
  }
  // The C++ variable that holds a version (VariableStorage), as read and written.
  std::string slotVariable(const StorageSlot& slot, sema::VariableId variable) const {
    const std::string& name = fn_->variableName(variable);
    if (&slot == &storage_.slotsOf(variable).front())
      return this->variable(name);
    return perThread_.count(name) ? slot.cppName + "[pyk_tid]" : slot.cppName;
  }
  // The copies into phis held in other C++ variables that a control-flow edge makes.
  void edgeCopies(sema::PhiEdge edge, const ir::Stmt* at);
  // `value` (C++ of type `valueType`) stored into `target` (TargetVisitor: visit<Kind>).
  void assign(const ir::Target* target, const std::string& value, const NumbaType& valueType) {
    TargetVisitor::visit(target, value, valueType);
  }
  void visitLocalTarget(const ir::LocalTarget* t, const std::string& value,
                        const NumbaType& valueType);
  void visitElementTarget(const ir::ElementTarget* t, const std::string& value,
                          const NumbaType& valueType);
  void visitFieldTarget(const ir::FieldTarget* t, const std::string& value,
                        const NumbaType& valueType);
  void visitViewTarget(const ir::ViewTarget* t, const std::string& value,
                       const NumbaType& valueType);
  void visitRecordItemTarget(const ir::RecordItemTarget* t, const std::string& value,
                             const NumbaType& valueType);
  void visitUnpackTarget(const ir::UnpackTarget* t, const std::string& value,
                         const NumbaType& valueType);
  // `value` stored in a record's field `place` (emitted) of type `placeType`: a scalar converted,
  // a nested record's or a sub-array's contents copied.
  void storeInRecord(const std::string& place, const NumbaType& placeType, const std::string& value,
                     const NumbaType& valueType);
  // What a `for` iterates over: its trip count and its i-th item (C++ text), of type `type`;
  // the iterable's temporaries are declared on the way.
  struct Iteration {
    std::string length;
    std::function<std::string(const std::string&)> item;
    NumbaType type;
  };
  Iteration iteration(const ir::Iter* it);
  // For a loop whose normal end runs code a `break` skips (its `else`, copies into the phis
  // after it): the flag its `break` sets, declared; "" for a loop without such code. Also the
  // copies on the way into the loop.
  std::string loopEntry(const ir::Stmt* loop, const std::vector<ir::Stmt*>& orelse);
  // A loop's normal end: its `else` and copies, unless it ended with `break`.
  void loopExit(const ir::Stmt* loop, const std::string& flag,
                const std::vector<ir::Stmt*>& orelse);

  // ---- expressions (EmitExpressions.cpp) ----
  std::string expr(const ir::Expr* e) {
    return !knownTrue_.empty() && knownTrue_.count(e) != 0 ? "true" : ExprVisitor::visit(e);
  }
  std::string visitLiteral(const ir::Literal* l);
  std::string visitFrozenConstant(const ir::FrozenConstant* c);
  std::string visitRead(const ir::Read* r);
  std::string visitIntrinsicValue(const ir::IntrinsicValue* v);
  std::string visitCast(const ir::Cast* c) { return castTo(c->value, c->type); }
  std::string visitUnwrapOptional(const ir::UnwrapOptional* u);
  std::string visitOptionalIsNone(const ir::OptionalIsNone* t);
  std::string visitBinary(const ir::Binary* b);
  std::string visitDatetimeOperation(const ir::DatetimeOperation* d);
  std::string visitUnary(const ir::Unary* u);
  std::string visitCompare(const ir::Compare* c);
  std::string visitIdentityTest(const ir::IdentityTest* t);
  std::string visitNot(const ir::Not* n) { return "(!" + expr(n->operand) + ")"; }
  std::string visitLogical(const ir::Logical* l);
  std::string visitLogicalValue(const ir::LogicalValue* l);
  std::string visitConditional(const ir::Conditional* c);
  std::string visitMakeTuple(const ir::MakeTuple* t);
  std::string visitOther(const ir::Expr* e);
  std::string constantValue(const sema::ConstantValue& v, const NumbaType& t, SourceRange at);
  // A module array of records frozen into the unit (once), as a view of type `t`.
  std::string constantRecordArray(const sema::ConstantArray& a, const NumbaType& t);
  // An element of a frozen module array, in its dtype's C++.
  std::string constantElement(const sema::ConstantValue& x, ScalarKind dtype);
  // A C-contiguous view of `shape` over `storage`.
  std::string arrayView(const std::string& storage, const NumbaType& t,
                        const std::vector<int64_t>& shape);

  // ---- records, tuples, arrays (EmitAccess.cpp) ----
  std::string visitTupleElement(const ir::TupleElement* t);
  std::string visitTupleSubscript(const ir::TupleSubscript* t);
  std::string visitRecordField(const ir::RecordField* f);
  std::string visitRecordArrayField(const ir::RecordArrayField* f);
  std::string visitVectorMember(const ir::VectorMember* m);
  std::string visitArrayAttribute(const ir::ArrayAttribute* a);
  std::string visitComplexPart(const ir::ComplexPart* p);
  std::string visitArrayElement(const ir::ArrayElement* e);
  std::string visitArrayView(const ir::ArrayView* v);
  // `value.real` / `.imag` of a number or a complex array (a float view), `value` of type `base`.
  std::string realOrImag(const std::string& value, const NumbaType& base, bool imaginary);
  // The element of `array` at `indices` (already emitted), checked when bounds checking is on,
  // and on the CPU backend always for the dynamic shared array.
  std::string arrayElement(const ir::Expr* array, const std::string& indices);
  // The variables of the current function holding the dynamic shared array or a view of it.
  const std::set<sema::VariableId>& dynamicSharedVariables();
  // Whether `array` is certainly a shared array the block made, or a view of one (every version
  // it reads was assigned one): memory only the block's own threads touch.
  bool inBlockMemory(const ir::Expr* array);
  // The atomics of kernel `f` its CPU workers gather (codegen/cpu/DeferredAtomics.h).
  const AtomicGathering& gatheringOf(const ir::Function& f);
  // One index of an array access: a signed index known to be non-negative goes through
  // `pyk::nonneg`, so the access skips Python's wrap of negative indices.
  std::string arrayIndex(const ir::Expr* item);
  // The indices of an item of `array`; a CPointer's one index as it is (numba wraps no negative
  // index of a pointer).
  std::string indices(const ir::Expr* array, const std::vector<ir::Expr*>& items);

  // ---- calls (EmitCalls.cpp) ----
  std::string visitCall(const ir::Call* c);
  std::string visitSpreadCall(const ir::SpreadCall* s);
  std::string visitBound(const ir::Bound* b);
  std::string visitIntrinsicCall(const ir::IntrinsicCall* c);
  // ---- numba's FFI (EmitForeignFunctions.cpp) ----
  std::string visitForeignCall(const ir::ForeignCall* c);
  // The declarations of the functions declared with cuda.declare_device, and their wrappers.
  std::string foreignDeclarations();
  // The linked CUDA C++ sources, first in the unit, between kLinkedSourcesBegin and
  // kLinkedSourcesEnd (pykc build moves them out of each CPU unit's namespace).
  std::string linkedSources() const;
  std::string visitMethodCall(const ir::MethodCall* m);
  std::string visitPrint(const ir::Print* p);

  // ---- intrinsic families ----
  // An intrinsic's spelling for this backend.
  std::string spelled(sema::Intrinsic id) const {
    return std::string(target_.spelling(sema::intrinsicInfo(id)));
  }
  // `blockIdx.x * blockDim.x + threadIdx.x` as int64.
  std::string globalThreadIndex() const;
  // `blockIdx * blockDim + threadIdx` on axis `d`, as numba's int64.
  std::string globalIndexOnAxis(int d) const;
  // Axis of `b` when it is `cuda.blockIdx.d * cuda.blockDim.d + cuda.threadIdx.d` written out (in
  // any order of the operands, each converted to int64 implicitly), else -1.
  static int writtenGlobalIndexAxis(const ir::Binary* b);
  std::string gridIndex(const ir::IntrinsicCall* c);
  std::string threadModelCall(const ir::IntrinsicCall* c);
  // cuda.shared.array, local.array (EmitMemory.cpp).
  std::string visitArrayAllocation(const ir::ArrayAllocation* a);
  // The offset of the shared array `a` makes in the function being emitted: placed (16-byte
  // aligned) the first time, the same however often it is emitted (the CPU backend emits some
  // statements more than once).
  int64_t sharedOffsetOf(const ir::ArrayAllocation* a, int64_t bytes);
  std::string atomic(const ir::IntrinsicCall* c);
  std::string warpOperation(const ir::IntrinsicCall* c);
  std::string bitOrFloatIntrinsic(const ir::IntrinsicCall* c);
  std::string cmathCall(const ir::IntrinsicCall* c);
  // A numpy ufunc: pyk::npy::ufunc_scalar or ufunc_arrays with its loop's types (EmitUfuncs.cpp).
  std::string ufuncCall(const ir::IntrinsicCall* c);
  std::string mathCall(const ir::IntrinsicCall* c);
  // A numba.cuda vector type's constructor: the elements of its arguments in order
  // (EmitVectors.cpp).
  std::string vectorConstruction(const ir::IntrinsicCall* c);
  // numba.cuda.libdevice.<f>: __nv_<f> on CUDA, pyk::libdevice::<f> on the CPU; what it writes
  // through pointers returned as the tuple numba types it as.
  std::string libdeviceCall(const ir::IntrinsicCall* c);

  const ir::Module& module_;
  DiagnosticEngine& diags_;
  const TargetSpelling& target_;
  const ir::Function* fn_ = nullptr;
  std::ostringstream prelude_;
  std::ostringstream body_;
  std::set<std::string> tuples_;
  std::set<std::string> reported_;
  // Each module array frozen once per unit, however often it is used.
  std::map<const sema::ConstantArray*, std::string> constantArrays_;
  // The values the spread calls being emitted bound, by binding.
  std::unordered_map<int, std::string> bindings_;
  int indent_ = 0;
  int temps_ = 0;
  // Per enclosing loop: the flag its `break` sets when the loop has an `else`, or "".
  std::vector<std::string> breakFlags_;
  std::vector<std::string> entryParameterTypes_;
  int64_t sharedBytes_ = 0;
  std::map<const ir::ArrayAllocation*, int64_t> sharedOffsets_;
  std::set<std::string> perThread_;
  std::set<const ir::Expr*> knownTrue_;
  std::map<const ir::Stmt*, std::string> roundJumps_;
  std::map<const ir::Function*, NonNegativeAnalysis> nonNegative_;
  // Which C++ variable holds each version of the function being emitted.
  VariableStorage storage_;
  std::map<const ir::Function*, std::set<sema::VariableId>> dynamicSharedVariables_;
  std::map<const ir::Function*, std::set<size_t>> blockMemoryVersions_; // inBlockMemory's
  std::map<const ir::Function*, AtomicGathering> gatherings_;           // gatheringOf's
  std::string threadExit_ = "return;";
  std::string blockReductionValue_;
  bool boundsCheck_ = false;
  bool failed_ = false;
  bool usesGridSync_ = false;
  bool endsThreadsEarly_ = false;
  bool lineDirectives_ = true;
};

} // namespace pyk::codegen
