// Ir: pyk's typed kernel IR, what typing lowers each specialization into and what code generation
// and the CPU backend's passes read (nothing after lowering looks at the syntax tree again).
//
// A Module is the IR of one entry specialization and of every device-function specialization it
// reaches. A Function holds its variables and their SSA versions (numba types each version on
// its own; phis where control flow joins) and its body: structured control flow (if, while,
// for over a range or an iteration, break, continue, return) over expression trees in which every
// value has its numba type, every operation is an enum (numba's intrinsics from Intrinsics.def,
// value members from ValueMembers.def, operators with the overload numba chose), numba's
// implicit conversions are Cast nodes, and calls name the callee's Function.
//
// The node kinds and their fields are declared once, in IrNodes.def; the structs here, the child
// traversal (forEachChild), the visitors (IrVisitor.h) and the printer (IrPrinter.h) are generated
// from it. The verifier (IrVerifier.h) checks that types agree and that every use is defined.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/FunctionKind.h"
#include "base/LinkedSource.h"
#include "ir/IrNode.h"
#include "sema/resolve/PhiEdge.h"

namespace pyk::ir {

// ---- the node structs, from IrNodes.def ---------------------------------------------------------

#define CHILD(Family, name) Family* name = nullptr;
#define OPTIONAL(Family, name) Family* name = nullptr;
#define CHILDREN(Family, name) std::vector<Family*> name;
#define DATA(Type, name) Type name{};
#define IR_NODE(Name, Family, Fields)                                                              \
  struct Name final : Family {                                                                     \
    static constexpr NodeKind kKind = NodeKind::Name;                                              \
    static bool classof(const Node* n) { return n->kind == kKind; }                                \
    Name() : Family(kKind) {}                                                                      \
    Fields                                                                                         \
  };
#include "ir/IrNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DATA

// ---- functions --------------------------------------------------------------------------------

struct Variable {
  std::string name;
  bool parameter = false;
  // The unification of its versions' types; none for a variable never given a value, or whose
  // versions' types do not unify.
  std::optional<types::NumbaType> type;
};

struct PhiInput {
  size_t version = 0;
  sema::PhiEdge edge = sema::PhiEdge::IfThen; // the If, loop, Break or Continue it leaves
  const Stmt* at = nullptr;
};

// One SSA version of a variable: a parameter's value on entry, an assignment (LocalTarget), or
// a phi where control flow joins (after an If or a loop: `join`; at a loop's head: `loopHead`).
struct Version {
  // Undefined: what a read no assignment reaches sees (numba's UndefVar), defined on entry: the
  // variable's C++ storage before any store, its type's zero.
  enum class Kind : uint8_t { Entry, Def, Phi, Undefined };
  Kind kind = Kind::Def;
  sema::VariableId variable = 0;
  std::optional<types::NumbaType> type; // none where typing gave it none (never read then)
  SourceRange range;                    // Def: the name stored to
  const Stmt* join = nullptr;           // Phi: the If, While, ForRange or ForEach
  bool loopHead = false;                // Phi: at the loop's head, not after it
  std::vector<PhiInput> inputs;         // Phi: every version that flows in
  std::vector<size_t> usedByPhis;       // the live phis this version flows into
  // Phi: something reads it (directly or through other phis); a dead phi is not typed.
  bool live = true;
  uint32_t reads = 0; // the Reads of it (and the reads of `x op= v`)
};

struct Function {
  types::CompiledFunctionKind kind = types::CompiledFunctionKind::Kernel;
  std::string name;          // as the source spells it
  std::string qualifiedName; // Python's, `make.<locals>.k` for a kernel a factory defines
  // pyk's stdlib module that defines it (`numba.cuda.random`), or "" for the user's own.
  std::string libraryName;
  std::string sourcePath; // the file that defines it
  SourceRange definition; // its `def` statement
  SourceRange nameRange;  // its name there
  // The specialization: the argument types, the constants it is specialized for (numba's
  // literals; nullopt for the other parameters), the return type.
  std::vector<types::NumbaType> params;
  std::vector<std::optional<sema::ConstantValue>> literals;
  types::NumbaType returnType;
  std::string description; // `name(float32[::1], int64) -> none`
  // A kernel's decorator asks its code to fit these (numba-cuda's `launch_bounds=`: max threads
  // per block, min blocks per multiprocessor, max blocks per cluster; `max_registers=`).
  std::vector<int64_t> launchBounds;
  std::optional<int64_t> maxRegisters;
  // The parameters (in order, `*args` included), then the locals.
  std::vector<Variable> variables;
  std::vector<Version> versions;
  std::vector<Stmt*> body;

  const std::string& variableName(sema::VariableId v) const { return variables[v].name; }
  // `x.3`: a version as the printer and messages name it.
  std::string versionName(size_t version) const;
};

// The IR of one entry specialization: its Function first, then every function it reaches (in the
// order calls are met, callees of a function after it). Owns every node and function.
class Module {
public:
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  template <class T>
  T* make(SourceRange range = {}) {
    auto node = std::make_unique<T>();
    node->range = range;
    T* raw = node.get();
    nodes_.push_back(std::move(node));
    return raw;
  }
  Function* addFunction() {
    functions_.push_back(std::make_unique<Function>());
    return functions_.back().get();
  }

  // numba's FFI: each function of CUDA C++ the unit calls, declared once, and the CUDA C++ files
  // linked into it (the kernels' and device functions' link=, the link= of each declare_device
  // called), in the order first needed, each once.
  struct ForeignDeclaration {
    std::string symbol;
    types::NumbaType returnType;
    std::vector<types::NumbaType> params;
    bool cAbi = false;     // `Ret symbol(args...)`; else numba's `int symbol(Ret* result, args...)`
    SourceRange firstCall; // in the unit's own file; invalid when in an imported module's
  };
  std::vector<ForeignDeclaration> foreignDeclarations;
  std::vector<types::LinkedSource> linkedSources;
  // Once each: a file by its path, a cuda.CUSource by its text too (numba-cuda names every
  // unnamed one `<unnamed-cu>`).
  void addLinkedSource(const types::LinkedSource& source) {
    for (const types::LinkedSource& s : linkedSources)
      if (s.path == source.path && (!source.inMemory || s.text == source.text))
        return;
    linkedSources.push_back(source);
  }

  // The file of the unit (the user's, whatever file a stdlib function comes from).
  const std::string& sourcePath() const { return sourcePath_; }
  void setSourcePath(std::string path) { sourcePath_ = std::move(path); }

  const Function& entry() const { return *functions_.front(); }
  Function& entry() { return *functions_.front(); }
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  size_t nodeCount() const { return nodes_.size(); }

private:
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Function>> functions_;
  std::string sourcePath_;
};

// ---- traversal --------------------------------------------------------------------------------

// Calls `fn` on each direct child node of `node`, in field order (IrNodes.def).
void forEachChild(Node* node, const std::function<void(Node*)>& fn);
void forEachChild(const Node* node, const std::function<void(const Node*)>& fn);

// Calls `fn` on `node` and every node below it, parents before children.
template <class Fn>
void forEachNode(const Node* node, Fn&& fn) {
  fn(node);
  forEachChild(node, [&](const Node* child) { forEachNode(child, fn); });
}
template <class Fn>
void forEachNode(Node* node, Fn&& fn) {
  fn(node);
  forEachChild(node, [&](Node* child) { forEachNode(child, fn); });
}
template <class Fn>
void forEachNode(const std::vector<Stmt*>& body, Fn&& fn) {
  for (const Stmt* s : body)
    forEachNode(s, fn);
}

} // namespace pyk::ir
