// ModuleExecutionInternal: what ModuleExecution's files share, for them alone: the executor of
// the module's top-level code, its frames and bindings. ModuleExecution.cpp runs statements and
// calls; ModuleExecutionNames.cpp holds the names' bindings, what they were computed from and
// what is left unknown, and the folding of values, loops' values and assignments;
// ModuleExecutionStores.cpp the changes made in place (items of arrays, lists).
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sema/fold/ConstantFolder.h"
#include "sema/fold/ModuleExecution.h"

namespace pyk::sema::execution {

using Kind = ConstantValue::Kind;

// Work allowed for one top-level statement of the module (a loop, a call): a statement costs 1,
// an array it binds its size over 1024, a tuple or list read its length. One past it is not
// followed (its names are left unknown); past kModuleBudget the rest of the module is not either.
constexpr int64_t kExecutionBudget = 1'000'000;
constexpr int64_t kModuleBudget = 4'000'000;
constexpr int kMaxCallDepth = 64;
// The work a call of a module function costs (its frame, its arguments), beyond its statements.
constexpr int64_t kCallCost = 8;
// The most values a loop's iterable is unrolled into (a longer loop is not followed).
constexpr int64_t kMaxIterations = 100'000;

// Whether `v` is or holds (in a tuple) an array.
bool holdsArray(const ConstantValue& v);
// The name an expression stores through (`a` of `a[i].x`), or null.
const ast::Name* storeRoot(const ast::Expr* e);
// The names `target` binds, into `out`.
void collectTargetNamesInto(const ast::Expr* target, std::set<std::string>& out);
// Whether `value` makes an array of its own: a numpy constructor, an arithmetic operator, a
// copy. Anything else (a name, an item, `.T`, `reshape`, `np.asarray`) may share memory.
bool makesOwnArray(const ast::Expr* value, const ModuleSymbolTable& symbols);

// Calls `fn` on every node of type T in `node` (not inside nested functions, classes or lambdas):
// `eachOf<ast::Name>(expr, ...)`, `eachOf<ast::Call>(statement, ...)`.
template <class T, class Fn>
void eachOf(const ast::Node* node, Fn&& fn) {
  if (node == nullptr || node->is<ast::Lambda>() || node->is<ast::FunctionDef>() ||
      node->is<ast::ClassDef>())
    return;
  if (const auto* t = node->as<T>())
    fn(t);
  ast::forEachChild(const_cast<ast::Node*>(node), [&](ast::Node* child) { eachOf<T>(child, fn); });
}

struct Binding {
  FoldResult value = FoldResult::notConstant("");
  SourceRange range;
  bool ownArray = false;         // an array (or list) no other value shares
  bool list = false;             // a Python list: its items are the value's (a Tuple)
  std::set<std::string> sources; // the names holding arrays it was computed from
};

enum class Flow : uint8_t { Normal, Break, Continue, Return, Stop };

struct Frame {
  const ast::FunctionDef* function = nullptr; // null: the module's frame
  std::map<std::string, Binding> names;
  std::set<std::string> locals; // a function's: every name it binds
  FoldResult returned = FoldResult::constant(ConstantValue::none());
  std::string stopReason;   // a function's: why its call cannot be followed
  bool returnedOwn = false; // a function's: it returned an array of its own making
  // The variables of the comprehensions being evaluated, innermost last.
  std::vector<std::map<std::string, ConstantValue>> comprehensions;
};

class Executor {
public:
  Executor(const ast::Module& module, const ModuleSymbolTable& symbols, const SourceFile* file);
  std::map<std::string, ExecutedName> run();

private:
  Frame& frame() { return frames_.back(); }
  bool inFunction() { return frame().function != nullptr; }
  bool overBudget() const { return steps_ - statementStart_ > kExecutionBudget; }

  // ---- names, what is left unknown, values (ModuleExecutionNames.cpp) ----

  std::optional<FoldResult> lookup(const std::string& name);

  // The frame a name of the current code lives in, and its binding there (null when unbound).
  std::pair<Frame*, Binding*> bindingOf(const std::string& name);

  // The names of arrays `e` reads (its value may share their memory).
  std::set<std::string> arraySources(const ast::Expr* e);

  void bind(const std::string& name, FoldResult value, SourceRange range, bool ownArray,
            std::set<std::string> sources, bool list = false);

  void setUnknown(const std::string& name, const std::string& reason, SourceRange range);

  // `name`'s array may have changed: it and every name connected to it through the values
  // computed from one another are left unknown.
  void changeUnknown(const std::string& name, const std::string& reason, SourceRange range);

  // `name`'s own array was changed in place: the names computed from it are left unknown.
  void dependentsUnknown(const std::string& name, const std::string& reason, SourceRange range);

  void spend(const ConstantValue& v);

  // The statements `body` may or may not run (or run in an order pyk does not know): every name
  // they bind or change is left unknown with `reason`.
  void unknownBlock(const std::vector<ast::Stmt*>& body, const std::string& reason);

  void unknownTarget(const ast::Expr* target, const std::string& reason, SourceRange range);

  void unknownStatement(const ast::Stmt* s, const std::string& reason);

  // The arrays passed to a call (or whose method is called) in `node` may be changed by it;
  // `why` ends the reason (", which pyk does not run at module level (...)").
  void unknownCalls(const ast::Node* node, const std::string& why);

  // Whether `c` changes none of its arguments (print, numpy's reductions, cuda.to_device, ...).
  bool readsOnly(const ast::Call* c) const;
  static std::string notRun(const std::string& reason);

  // In a function, what cannot be followed stops its call; at module level it leaves what the
  // statement binds unknown and the module runs on.
  Flow cannotFollow(const ast::Stmt* s, const std::string& reason);

  FoldResult fold(const ast::Expr* e);

  // The values a `for` loop over `iter` takes, or why they are not known.
  std::optional<std::vector<ConstantValue>> iterationValues(const ast::Expr* iter,
                                                            std::string& reason);

  // `[elt for ... in ... if ...]` or `(elt for ...)`: the items, as a Tuple.
  FoldResult comprehension(const ast::Expr* elt, const std::vector<ast::Comprehension>& generators);

  // Binds `value` (computed from the names `sources`) to `target`; false with `reason` when the
  // binding cannot be followed.
  bool assign(const ast::Expr* target, const FoldResult& value, SourceRange range, bool ownArray,
              const std::set<std::string>& sources, std::string& reason, bool list = false);

  // ---- changes in place: items of arrays, lists (ModuleExecutionStores.cpp) ----

  // `a[index] = value` where `a` names an array of its own: its item changed in place.
  bool storeItem(const ast::Subscript* s, const FoldResult& value, SourceRange range,
                 std::string& reason);

  // Where `slice` indexes `array`: every item (`[:]`, `[...]`: `whole`) or the one at `flat`.
  bool itemPosition(const ConstantArray& array, const ast::Expr* slice, bool& whole, size_t& flat,
                    std::string& reason);

  // Stores `value` (converted to the dtype, as numpy's setitem does) into `name`'s own array.
  bool storeAt(const std::string& name, Binding& b, bool whole, size_t flat,
               const ConstantValue& value, SourceRange range, std::string& reason);

  // `a[i] op= x` on an array of the code's own: the item computed and stored back; nullopt when
  // the target is no such item.
  std::optional<Flow> augmentItem(const ast::Stmt* s, const ast::AugAssign& a);

  // Whether `e` is a call of a module function that returned an array of its own making.
  bool returnsOwnArray(const ast::Expr* e);

  bool readsList(const ast::Expr* e);

  // Whether `e`'s value may be a list (or the list of a name): it reads one and is not a
  // conversion of it (`tuple(L)`, `len(L)`, `L[0]`, `np.array(L)`).
  bool producesList(const ast::Expr* e);

  // The items of a new list `e` makes (`[a, b]`, `list(x)`, `[]`) as a Tuple; nullopt when `e`
  // makes none.
  std::optional<FoldResult> newList(const ast::Expr* e);

  // The list of `name` cannot be followed past here.
  Flow changeList(const std::string& name, SourceRange range, const std::string& why);

  // `name`'s list was changed in place: the names computed from it are left unknown.
  void listChanged(const std::string& name, SourceRange range);

  // Whether `name`'s list can be changed in place here; `why` when not.
  Binding* ownList(const std::string& name, std::string& why);

  Flow extendList(const std::string& name, const ast::Expr* more, SourceRange range);

  // `L.append(x)`, `L.extend(xs)`, `L.insert(i, x)`, `L.clear()`, `L.reverse()` on a list of
  // the code's own; nullopt when `c` is no method call on a list.
  std::optional<Flow> runListMethod(const ast::Call* c);

  // `L[i] = value` on a list of the code's own.
  bool storeListItem(const std::string& name, Binding& b, const ast::Subscript* s,
                     const FoldResult& value, SourceRange range, std::string& reason);

  // ---- statements, calls of the module's functions (ModuleExecution.cpp) ----

  Flow runBlock(const std::vector<ast::Stmt*>& body);

  Flow runStatement(const ast::Stmt* s);

  // A def, class or import binds `names` to what the symbol table holds.
  Flow rebound(const ast::Stmt* s, const std::vector<std::string>& names);

  Flow cannotFollowBlocks(const ast::Stmt* s, std::vector<const std::vector<ast::Stmt*>*> blocks,
                          const std::string& reason);

  Flow runAssign(const ast::Stmt* s, const std::vector<ast::Expr*>& targets,
                 const ast::Expr* valueExpr);

  Flow runAugAssign(const ast::Stmt* s, const ast::AugAssign& a);

  Flow runExpressionStatement(const ast::Expr* e);

  Flow runFor(const ast::Stmt* s, const ast::For& f);

  Flow runWhile(const ast::Stmt* s, const ast::While& w);

  // A `try` whose body cannot raise (as far as pyk sees) runs its body, `else` and `finally`;
  // one that imports a module pyk does not know leaves its names unknown: which branch runs
  // depends on the machine that runs the program.
  Flow runTry(const ast::Stmt* s, const ast::Try& t);

  // The folder's hook (ConstantFolder::setRunningCode): a call of a module function, a
  // comprehension.
  std::optional<FoldResult> runningCode(const ast::Expr* e);
  std::optional<FoldResult> moduleCall(const ast::Call* call);

  FoldResult callFunction(const ast::FunctionDef& def, const ast::Call* call);

  static void collectLocals(const ast::Node* node, std::set<std::string>& locals,
                            bool& rebindsGlobals);

  const ast::Module& module_;
  const ModuleSymbolTable& symbols_;
  DiagnosticEngine quiet_;
  ConstantFolder folder_;
  std::map<std::string, const ast::FunctionDef*> functions_;
  std::deque<Frame> frames_; // a deque: a call's frame leaves the others' bindings in place
  bool raised_ = false;      // a fold raised a Python error since it was last cleared
  bool lastCallOwn_ = false; // the last call of a module function returned an array of its own
  int64_t steps_ = 0;
  int64_t statementStart_ = 0; // steps_ when the running top-level statement began
  // The names the module's own statements assign (read before their first assignment: Python's
  // NameError), and those a def, class or import bound since (the symbol table's then).
  std::set<std::string> assignedAtModuleLevel_;
  // Per module function called: the names its body binds, and whether it has `global`.
  struct FunctionLocals {
    std::set<std::string> names;
    bool rebindsGlobals = false;
  };
  std::map<const ast::FunctionDef*, FunctionLocals> functionLocals_;
  std::set<std::string> rebound_;
};

} // namespace pyk::sema::execution
