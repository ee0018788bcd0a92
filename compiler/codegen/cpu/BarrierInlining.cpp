// BarrierInlining: the kernel copied (IrClone), then each statement holding a call of a function
// that waits at a barrier rewritten as the callee's body followed by the statement reading the
// callee's result; the inlined statements are scanned again (the callee's own such calls).
#include "codegen/cpu/BarrierInlining.h"

#include <optional>
#include <set>

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/ThreadModelScan.h"
#include "codegen/cpu/WaitingCalls.h"
#include "codegen/spelling/CppNames.h"
#include "ir/IrClone.h"

namespace pyk::codegen {

namespace {

// The Call nodes directly in `f` (not through its callees).
std::vector<const ir::Call*> callsIn(const ir::Function& f) {
  std::vector<const ir::Call*> out;
  ir::forEachNode(f.body, [&](const ir::Node* n) {
    if (const auto* c = n->as<ir::Call>())
      out.push_back(c);
  });
  return out;
}

// The functions of `module` that wait at a barrier, themselves or through their callees.
std::set<const ir::Function*> barrierFunctions(const ir::Module& module) {
  std::set<const ir::Function*> out;
  for (const auto& f : module.functions())
    if (firstIntrinsicCall(f->body, sema::intrinsic_flags::Barrier) != nullptr)
      out.insert(f.get());
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& f : module.functions())
      if (!out.count(f.get()))
        for (const ir::Call* c : callsIn(*f))
          if (out.count(c->callee) && out.insert(f.get()).second)
            changed = true;
  }
  return out;
}

// Whether `from` reaches `to` through calls (a call chain of one step or more).
bool reaches(const ir::Function& from, const ir::Function& to) {
  std::set<const ir::Function*> seen;
  std::vector<const ir::Function*> work{&from};
  while (!work.empty()) {
    const ir::Function* f = work.back();
    work.pop_back();
    for (const ir::Call* c : callsIn(*f)) {
      if (c->callee == &to)
        return true;
      if (seen.insert(c->callee).second)
        work.push_back(c->callee);
    }
  }
  return false;
}

bool holdsReturn(const ir::Node* n) {
  bool found = false;
  ir::forEachNode(n, [&](const ir::Node* x) { found = found || x->is<ir::Return>(); });
  return found;
}

// Whether every `return` of `body` ends it: the last statement, or the last of both branches of
// an `if`-`else` that is last. `mayFallOff`: the body may also end without one (a function
// returning None).
bool returnsAtTail(const std::vector<ir::Stmt*>& body, bool mayFallOff) {
  for (size_t i = 0; i + 1 < body.size(); ++i)
    if (holdsReturn(body[i]))
      return false;
  if (body.empty())
    return mayFallOff;
  const ir::Stmt* last = body.back();
  if (last->is<ir::Return>())
    return true;
  if (const auto* i = last->as<ir::If>())
    return returnsAtTail(i->then, mayFallOff) && returnsAtTail(i->otherwise, mayFallOff);
  return mayFallOff && !holdsReturn(last);
}

// A copy of `body` into `into` (a shared array's allocation kept: its offset in the block's
// shared memory is keyed by its node); the versions from `first` on, which came with it, made to
// name the copies of the statements they named (a phi's join, the statements its inputs leave).
std::vector<ir::Stmt*> copyBody(ir::Module& into, const std::vector<ir::Stmt*>& body,
                                ir::CloneOptions& options, std::vector<ir::Version>& versions,
                                size_t first) {
  options.share = [](const ir::Node* n) { return n->is<ir::ArrayAllocation>(); };
  std::vector<ir::Stmt*> out;
  for (const ir::Stmt* st : body)
    out.push_back(ir::cloneTree(into, st, options));
  auto copyOf = [&](const ir::Stmt* s) {
    return static_cast<const ir::Stmt*>(options.copies.at(s));
  };
  for (size_t v = first; v < versions.size(); ++v) {
    if (versions[v].join != nullptr)
      versions[v].join = copyOf(versions[v].join);
    for (ir::PhiInput& in : versions[v].inputs)
      if (in.at != nullptr)
        in.at = copyOf(in.at);
  }
  return out;
}

// Whether `f` calls one of `waiting` or waits at a barrier with a value: what the pass rewrites.
bool anythingToRewrite(const ir::Function& f, const std::set<const ir::Function*>& waiting) {
  bool found = false;
  ir::forEachNode(f.body, [&](const ir::Node* n) {
    if (const auto* c = n->as<ir::Call>(); c != nullptr && waiting.count(c->callee))
      found = true;
    found = found || isBlockReduction(n);
  });
  return found;
}

class Inliner {
public:
  // `waiting`: barrierFunctions(source).
  Inliner(const ir::Module& source, ir::Module& out, ir::Function& kernel,
          const std::set<const ir::Function*>& waiting)
      : source_(source), out_(out), k_(kernel), wanted_(waiting), finder_(wanted_, reductions_) {
    for (const ir::Variable& v : k_.variables)
      names_.insert(pythonName(v.name));
  }

  bool body(std::vector<ir::Stmt*>& list) {
    for (size_t i = 0; i < list.size();) {
      ir::Stmt* s = list[i];
      if (!nested(s))
        return false;
      bool eachTrip = false;
      std::optional<WaitingCall> found = finder_.find(s, eachTrip);
      if (!found) {
        ++i;
        continue;
      }
      std::vector<ir::Stmt*> inlined;
      if (!inlineAt(s, *found, eachTrip, inlined))
        return false;
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
      list.insert(list.begin() + static_cast<std::ptrdiff_t>(i), inlined.begin(), inlined.end());
      // Scanned again from the inlined statements: the callee's own calls, then the statement.
    }
    return true;
  }

  std::string whyNot;

private:
  bool nested(ir::Stmt* s) {
    if (auto* i = s->as<ir::If>())
      return body(i->then) && body(i->otherwise);
    if (auto* w = s->as<ir::While>())
      return body(w->body) && body(w->otherwise);
    if (auto* f = s->as<ir::ForRange>())
      return body(f->body) && body(f->otherwise);
    if (auto* f = s->as<ir::ForEach>())
      return body(f->body) && body(f->otherwise);
    return true;
  }

  // How a reason names a call: "the call of `f` at 12:9 (which waits at `cuda.syncthreads` at
  // 4:5)".
  std::string callText(const ir::Node* at, const ir::Function& callee) const {
    std::string text = "the call of `" + callee.name + "` at " + sourcePosition(at);
    if (const ir::IntrinsicCall* b =
            firstIntrinsicCall(callee.body, sema::intrinsic_flags::Barrier))
      text += " (which waits at `" + intrinsicNameOf(b) + "` at " + sourcePosition(b) + ")";
    else
      text += " (whose callees wait at a barrier)";
    return text;
  }

  bool refuse(std::string why) {
    whyNot = std::move(why);
    return false;
  }

  // `statements`: what replaces `s` (the callee's body, then `s` reading its result).
  bool inlineAt(ir::Stmt* s, const WaitingCall& found, bool eachTrip,
                std::vector<ir::Stmt*>& statements) {
    if (found.reduction != nullptr)
      return reductionAt(s, found, eachTrip, statements);
    if (found.call == nullptr)
      return refuse("a call of a device function that waits at a barrier, with `*args`, at " +
                    sourcePosition(s) + ", which the CPU backend does not inline yet");
    ir::Call* c = found.call;
    const ir::Function& f = *c->callee;
    if (eachTrip)
      return refuse(callText(c, f) + " is in a `while` test, evaluated at each trip, which the "
                                     "CPU backend does not inline");
    if (!found.skipped.empty())
      return refuse(callText(c, f) + " is " + found.skipped +
                    ", which Python may skip: the CPU backend does not inline it");
    if (found.afterEffects)
      return refuse(callText(c, f) + " comes after a part of its statement that reads memory or "
                                     "has an effect, which the CPU backend does not reorder");
    if (&f == &source_.entry() || reaches(f, f))
      return refuse(callText(c, f) + " is recursive, which only fibers can run");
    if (++inlined_ > kMaxInlined)
      return refuse(callText(c, f) + " makes more than " + std::to_string(kMaxInlined) +
                    " inlined calls");
    const bool none = f.returnType.isVoid();
    if (!returnsAtTail(f.body, none))
      return refuse(callText(c, f) + ": `" + f.name +
                    "` returns before the end of its body, which the CPU backend does not "
                    "inline yet");
    const size_t result = callee(f, c, statements);
    if (found.parent == s && s->is<ir::Evaluate>())
      return true; // the value was the whole statement: gone with the call
    auto* read = out_.make<ir::Read>(c->range);
    read->type = c->type;
    if (result == sema::kNoVersion) {
      // A call of a function returning None used as a value: None.
      auto* literal = out_.make<ir::Literal>(c->range);
      literal->type = c->type;
      literal->value = sema::ConstantValue::none();
      ir::replaceChild(found.parent, c, literal);
    } else {
      read->variable = {k_.versions[result].variable, result};
      ++k_.versions[result].reads;
      ir::replaceChild(found.parent, c, read);
    }
    statements.push_back(s);
    return true;
  }

  // `p = syncthreads_count(x)`'s value in a local of its own, assigned by a statement of its own
  // (`syncthreads_count.value = syncthreads_count(x)`), which the split runs as its block's
  // reduction; the statement reads the local.
  bool reductionAt(ir::Stmt* s, const WaitingCall& found, bool eachTrip,
                   std::vector<ir::Stmt*>& statements) {
    ir::IntrinsicCall* c = found.reduction;
    const std::string what = "`" + intrinsicNameOf(c) + "` at " + sourcePosition(c);
    if (eachTrip)
      return refuse(what + " is in a `while` test, evaluated at each trip, which the CPU "
                           "backend does not split yet");
    if (!found.skipped.empty())
      return refuse(what + " is " + found.skipped +
                    ", which Python may skip: the CPU backend "
                    "does not split there");
    if (found.afterEffects)
      return refuse(what + " comes after a part of its statement that reads memory or has an "
                           "effect, which the CPU backend does not reorder");
    const size_t variable = k_.variables.size();
    k_.variables.push_back(
        {uniqueName(std::string(sema::intrinsicInfo(c->intrinsic).member()), "value"), false,
         c->type});
    const size_t version = defineVersion(variable, c->type, c->range);
    ir::Assign* a = assignment(variable, version, c->type, c, c->range);
    reductions_.insert(a);
    statements.push_back(a);
    if (found.parent == s && s->is<ir::Evaluate>())
      return true; // the value was the whole statement
    auto* read = out_.make<ir::Read>(c->range);
    read->type = c->type;
    read->variable = {variable, version};
    ++k_.versions[version].reads;
    ir::replaceChild(found.parent, c, read);
    statements.push_back(s);
    return true;
  }

  // A new version of `variable` that an assignment defines.
  size_t defineVersion(size_t variable, const types::NumbaType& type, SourceRange range) {
    ir::Version v;
    v.kind = ir::Version::Kind::Def;
    v.variable = variable;
    v.type = type;
    v.range = range;
    k_.versions.push_back(std::move(v));
    return k_.versions.size() - 1;
  }

  // `variable = value` into `version`.
  ir::Assign* assignment(size_t variable, size_t version, const types::NumbaType& type,
                         ir::Expr* value, SourceRange range) {
    auto* target = out_.make<ir::LocalTarget>(range);
    target->type = type;
    target->variable = {variable, version};
    auto* a = out_.make<ir::Assign>(range);
    a->targets.push_back(target);
    a->value = value;
    return a;
  }

  std::string uniqueName(const std::string& function, const std::string& name) {
    std::string candidate = function + "." + name;
    for (int n = 2; names_.count(pythonName(candidate)); ++n)
      candidate = function + "." + std::to_string(n) + "." + name;
    names_.insert(pythonName(candidate));
    return candidate;
  }

  // The callee's variables and versions added to the kernel, its parameters assigned the
  // arguments, its body copied; the version of its result local at the end (kNoVersion: none).
  size_t callee(const ir::Function& f, ir::Call* c, std::vector<ir::Stmt*>& statements) {
    const size_t firstVariable = k_.variables.size();
    const size_t firstVersion = k_.versions.size();
    for (const ir::Variable& v : f.variables)
      k_.variables.push_back({uniqueName(f.name, v.name), false, v.type});
    for (const ir::Version& v : f.versions) {
      ir::Version copy = v;
      copy.variable += firstVariable;
      for (ir::PhiInput& in : copy.inputs)
        in.version += firstVersion;
      for (size_t& phi : copy.usedByPhis)
        phi += firstVersion;
      if (copy.kind == ir::Version::Kind::Entry) {
        copy.kind = ir::Version::Kind::Def; // the parameter assigned its argument
        copy.range = c->range;
      }
      k_.versions.push_back(std::move(copy));
    }
    // The arguments, in order, each into its parameter's entry version. A function or a type
    // passed is no value (the callee was specialized for it, and its body never reads it).
    size_t arg = 0;
    for (size_t p = 0; p < f.params.size(); ++p) {
      size_t entry = sema::kNoVersion;
      for (size_t v = 0; v < f.versions.size(); ++v)
        if (f.versions[v].kind == ir::Version::Kind::Entry && f.versions[v].variable == p)
          entry = v;
      if (f.params[p].isCompileTimeOnly()) {
        if (entry != sema::kNoVersion) {
          k_.versions[firstVersion + entry].type.reset();
          k_.versions[firstVersion + entry].reads = 0;
        }
        continue;
      }
      ir::Expr* value = c->args[arg++];
      if (entry == sema::kNoVersion || !f.versions[entry].type) {
        auto* e = out_.make<ir::Evaluate>(c->range);
        e->value = value;
        statements.push_back(e);
        continue;
      }
      statements.push_back(
          assignment(firstVariable + p, firstVersion + entry, f.params[p], value, c->range));
    }
    ir::CloneOptions options;
    options.adjust = [&](const ir::Node*, ir::Node* copy) {
      if (auto* r = copy->as<ir::Read>())
        r->variable = {r->variable.variable + firstVariable, r->variable.version + firstVersion};
      else if (auto* t = copy->as<ir::LocalTarget>())
        t->variable = {t->variable.variable + firstVariable, t->variable.version + firstVersion};
    };
    std::vector<ir::Stmt*> body = copyBody(out_, f.body, options, k_.versions, firstVersion);
    size_t result = sema::kNoVersion;
    if (f.returnType.isVoid()) {
      dropReturns(body);
    } else {
      const size_t variable = k_.variables.size();
      k_.variables.push_back({uniqueName(f.name, "return"), false, f.returnType});
      result = resultOf(body, variable, f.returnType);
    }
    statements.insert(statements.end(), body.begin(), body.end());
    return result;
  }

  // Returns at the ends of `body` (returnsAtTail) removed, their values evaluated.
  void dropReturns(std::vector<ir::Stmt*>& body) {
    if (body.empty())
      return;
    if (auto* r = body.back()->as<ir::Return>()) {
      if (r->value != nullptr && !r->value->is<ir::Literal>()) {
        auto* e = out_.make<ir::Evaluate>(r->range);
        e->value = r->value;
        body.back() = e;
      } else {
        body.pop_back();
      }
    } else if (auto* i = body.back()->as<ir::If>()) {
      dropReturns(i->then);
      dropReturns(i->otherwise);
    }
  }

  // Returns at the ends of `body` as assignments of the result local `variable`; the version it
  // holds after `body` (a phi after an `if`-`else` whose branches both return).
  size_t resultOf(std::vector<ir::Stmt*>& body, size_t variable, const types::NumbaType& type) {
    if (auto* r = body.back()->as<ir::Return>()) {
      const size_t version = defineVersion(variable, type, r->range);
      body.back() = assignment(variable, version, type, r->value, r->range);
      return version;
    }
    auto* i = body.back()->as<ir::If>(); // returnsAtTail: both branches return
    const size_t then = resultOf(i->then, variable, type);
    const size_t otherwise = resultOf(i->otherwise, variable, type);
    const size_t phi = k_.versions.size();
    ir::Version v;
    v.kind = ir::Version::Kind::Phi;
    v.variable = variable;
    v.type = type;
    v.join = i;
    v.inputs = {{then, sema::PhiEdge::IfThen, i}, {otherwise, sema::PhiEdge::IfElse, i}};
    k_.versions.push_back(v);
    k_.versions[then].usedByPhis.push_back(phi);
    k_.versions[otherwise].usedByPhis.push_back(phi);
    return phi;
  }

  static constexpr int kMaxInlined = 256;

  const ir::Module& source_;
  ir::Module& out_;
  ir::Function& k_;
  const std::set<const ir::Function*>& wanted_;
  std::set<const ir::Node*> reductions_; // the `v = syncthreads_count(p)` statements made
  WaitingCallFinder finder_;
  std::set<std::string> names_; // the C++ names of the kernel's variables
  int inlined_ = 0;
};

} // namespace

InlinedBarrierCalls inlineBarrierCalls(const ir::Module& module) {
  const ir::Function& entry = module.entry();
  const std::set<const ir::Function*> waiting = barrierFunctions(module);
  if (!anythingToRewrite(entry, waiting))
    return {}; // most kernels: nothing copied
  auto out = std::make_shared<ir::Module>();
  out->setSourcePath(module.sourcePath());
  ir::Function& k = *out->addFunction();
  k = entry; // its specialization, variables and versions; the body is copied next
  ir::CloneOptions options;
  k.body = copyBody(*out, entry.body, options, k.versions, 0);
  Inliner inliner(module, *out, k, waiting);
  if (!inliner.body(k.body))
    return {nullptr, inliner.whyNot};
  return {std::move(out), ""};
}

} // namespace pyk::codegen
