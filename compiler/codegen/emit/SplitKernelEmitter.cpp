// SplitKernelEmitter: a split kernel's block-level program (SplitKernelEmitter.h).
#include "codegen/emit/SplitKernelEmitter.h"

#include "codegen/cpu/BlockPrefetch.h"
#include "codegen/cpu/VariableUses.h"
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using types::NumbaType;
using types::ScalarKind;

namespace {

class SplitKernelEmitter {
public:
  SplitKernelEmitter(UnitEmitter& emitter, const ir::Function& kernel, const BarrierSplitPlan& plan,
                     const uint32_t (&blockShape)[3])
      : e_(emitter), kernel_(kernel), plan_(plan),
        exited_(plan.hasReturn ? "pyk_exited" : "nullptr") {
    if (blockShape[0] != 0)
      shape_ = "<" + std::to_string(blockShape[0]) + ", " + std::to_string(blockShape[1]) + ", " +
               std::to_string(blockShape[2]) + ">";
  }

  void emit() {
    e_.beginFunction(kernel_);
    std::set<std::string> perThread;
    for (sema::VariableId v : plan_.perThread)
      perThread.insert(kernel_.variableName(v));
    e_.setPerThreadVariables(std::move(perThread));
    e_.setThreadExit("{ pyk_exited[pyk_tid] = 1; return; }");
    if (plan_.hasReturn)
      e_.emitLine("pyk::uint8 pyk_exited[pyk::cpu::kMaxThreadsPerBlock] = {};");
    for (sema::VariableId v : locals()) {
      if (plan_.perThread.count(v))
        declare(v, "", "[pyk::cpu::kMaxThreadsPerBlock];");
      else if (plan_.perBlock.count(v))
        declare(v, "", "{};");
    }
    steps(plan_.steps);
    e_.setPerThreadVariables({});
    e_.setThreadExit("return;");
  }

private:
  // The kernel's locals (its variables but the parameters), in order.
  std::vector<sema::VariableId> locals() const {
    std::vector<sema::VariableId> out;
    for (sema::VariableId v = 0; v < kernel_.variables.size(); ++v)
      if (!kernel_.variables[v].parameter)
        out.push_back(v);
    return out;
  }

  void steps(const std::vector<SplitStep>& list) {
    for (const SplitStep& s : list) {
      switch (s.kind) {
      case SplitStep::Kind::Region:
        region(s);
        break;
      case SplitStep::Kind::Uniform:
        e_.emitLine("{");
        e_.indent(1);
        controlContext();
        statements(s.statements);
        e_.indent(-1);
        e_.emitLine("}");
        break;
      case SplitStep::Kind::For:
        forLoop(s);
        break;
      case SplitStep::Kind::Reduction:
        reduction(s);
        break;
      case SplitStep::Kind::While: {
        const auto* w = s.control->as<ir::While>();
        e_.emitLineDirective(w);
        e_.emitLine("for (;;) {");
        e_.indent(1);
        controlContext();
        e_.emitLine("if (!(" + e_.condition(w->condition) + "))");
        e_.emitLine("  break;");
        steps(s.body);
        e_.indent(-1);
        e_.emitLine("}");
        break;
      }
      case SplitStep::Kind::If: {
        const auto* i = s.control->as<ir::If>();
        e_.emitLineDirective(i);
        e_.emitLine("{");
        e_.indent(1);
        controlContext();
        e_.emitLine("if (" + e_.condition(i->condition) + ") {");
        e_.indent(1);
        steps(s.body);
        e_.indent(-1);
        e_.emitLine("} else {");
        e_.indent(1);
        steps(s.orelse);
        e_.indent(-1);
        e_.emitLine("}");
        e_.indent(-1);
        e_.emitLine("}");
        break;
      }
      }
    }
  }

  // Block-level control is evaluated as the first live thread sees it (its values are the same
  // in every thread: the plan checked they are uniform).
  void controlContext() {
    e_.emitLine("const pyk::uint32 pyk_tid = pyk::cpu::firstLiveThread(pyk_ctx, " + exited_ + ");");
    e_.emitLine("if (pyk_tid == pyk::cpu::kNoThread)");
    e_.emitLine("  return;");
    e_.emitLine("pyk_ctx.threadIdx = pyk::cpu::threadIndexOf(pyk_ctx, pyk_tid);");
    rematerialize();
  }

  // A step's statements; a guarded one as the `if` of its guard around it alone.
  void statements(const std::vector<RegionStatement>& list) {
    for (const RegionStatement& s : list) {
      if (s.guard == nullptr) {
        e_.emitStatements({s.statement});
        continue;
      }
      e_.emitLineDirective(s.guard);
      e_.emitLine("if (" + e_.condition(s.guard->condition) + ") {");
      e_.indent(1);
      e_.emitStatements({s.statement});
      e_.indent(-1);
      e_.emitLine("}");
    }
  }

  // The head of a thread loop's body: the kernel's parameters captured by value, so that GCC
  // keeps an array's pointer and shape in registers across the loop instead of reloading (and
  // spilling) them through the closure (the vector add's narrowed loop on one core of the AMD
  // VM: 3.5 ms by reference, 2.9 ms by value, as fast as the hand-written loop). The split never
  // assigns a parameter (ExecutionModeDecision), so the copies stay what the parameters are.
  std::string threadLambda() const {
    std::string captures = "&";
    for (size_t i = 0; i < kernel_.params.size(); ++i)
      if (!kernel_.params[i].isCompileTimeOnly()) {
        const std::string name = pythonName(kernel_.variables[i].name);
        captures += ", " + name + " = " + name;
      }
    return "[" + captures + "](pyk::cpu::Context& pyk_ctx, pyk::int32 pyk_tid) {";
  }

  // Each C++ variable of local `v` (one per type its versions take) declared.
  void declare(sema::VariableId v, const std::string& prefix, const std::string& suffix) {
    for (const std::string& declaration : e_.variableDeclarations(v))
      e_.emitLine(prefix + declaration + suffix);
  }

  // The thread's own rematerialized locals, computed again.
  void rematerialize() {
    for (sema::VariableId v : locals())
      if (plan_.rematerializedLocals.count(v))
        declare(v, "[[maybe_unused]] ", "{};");
    e_.emitStatements(plan_.rematerialized);
  }

  // The box of threads a narrowed region runs: the hull of what its `if` tests allow, with the
  // bounds evaluated by the block as its first live thread sees them.
  void threadBox(const std::vector<std::vector<ThreadBound>>& narrowing) {
    controlContext();
    e_.emitLine("pyk::cpu::ThreadBox pyk_box = pyk::cpu::ThreadBox::none();");
    for (const std::vector<ThreadBound>& bounds : narrowing) {
      e_.emitLine("{");
      e_.indent(1);
      e_.emitLine("pyk::cpu::ThreadBox pyk_part = pyk::cpu::ThreadBox::whole(pyk_ctx);");
      for (const ThreadBound& b : bounds) {
        const std::string value = e_.valueAs(b.bound, NumbaType::scalar(ScalarKind::Int64));
        const std::string axis = std::to_string(b.axis);
        e_.emitLine(b.global
                        ? "pyk_part.narrowGlobal(pyk_ctx, " + axis + ", '" + opCode(b.op) + "', " +
                              value + ");"
                        : "pyk_part.narrow(" + axis + ", '" + opCode(b.op) + "', " + value + ");");
      }
      e_.emitLine("pyk_box.include(pyk_part);");
      e_.indent(-1);
      e_.emitLine("}");
    }
  }
  static char opCode(ir::CompareOp op) {
    switch (op) {
    case ir::CompareOp::Lt:
      return '<';
    case ir::CompareOp::LtE:
      return 'l';
    case ir::CompareOp::Gt:
      return '>';
    case ir::CompareOp::GtE:
      return 'g';
    default:
      return '=';
    }
  }

  // A region with tests of a grid index: its loops twice, once with the tests `true` for the
  // blocks whose every thread satisfies them (SplitStep::blockTests), once as they are.
  void region(const SplitStep& s) {
    if (s.blockTests.empty()) {
      regionLoops(s);
      return;
    }
    e_.emitLine("{");
    e_.indent(1);
    controlContext();
    e_.emitLine("pyk::cpu::ThreadBox pyk_tested = pyk::cpu::ThreadBox::whole(pyk_ctx);");
    std::set<const ir::Expr*> tests;
    for (const auto& [test, b] : s.blockTests) {
      tests.insert(test);
      e_.emitLine("pyk_tested.narrowGlobal(pyk_ctx, " + std::to_string(b.axis) + ", '" +
                  opCode(b.op) + "', " + e_.valueAs(b.bound, NumbaType::scalar(ScalarKind::Int64)) +
                  ");");
    }
    e_.emitLine("if (pyk_tested.coversBlock(pyk_ctx)) {");
    e_.indent(1);
    e_.setKnownTrue(std::move(tests));
    regionLoops(s);
    e_.setKnownTrue({});
    e_.indent(-1);
    e_.emitLine("} else {");
    e_.indent(1);
    regionLoops(s);
    e_.indent(-1);
    e_.emitLine("}");
    e_.indent(-1);
    e_.emitLine("}");
  }

  void regionLoops(const SplitStep& s) {
    if (s.exactParts.empty()) {
      threadLoop(s, s.narrowing, nullptr);
      return;
    }
    for (const ExactPart& part : s.exactParts)
      threadLoop(s, part.narrowing, &part);
  }

  // One loop over the threads of a region (over the hull of `narrowing`, if any): its statements,
  // or an exact part's instead.
  void threadLoop(const SplitStep& s, const std::vector<std::vector<ThreadBound>>& narrowing,
                  const ExactPart* part) {
    const bool narrowed = !narrowing.empty();
    if (narrowed) {
      e_.emitLine("{");
      e_.indent(1);
      threadBox(narrowing);
    }
    e_.emitLine(std::string(narrowed
                                ? "pyk::cpu::forEachThreadIn" + shape_ + "(pyk_ctx, " + exited_ +
                                      ", pyk_box"
                                : "pyk::cpu::forEachThread" + shape_ + "(pyk_ctx, " + exited_) +
                ", " + threadLambda());
    e_.indent(1);
    e_.emitLine("(void)pyk_tid;");
    for (sema::VariableId v : locals()) {
      if (plan_.perThread.count(v) || plan_.perBlock.count(v) ||
          plan_.rematerializedLocals.count(v))
        continue;
      declare(v, "[[maybe_unused]] ", "{};");
    }
    // The first region computes the rematerialized locals where the source does; later ones
    // compute them first.
    if (s.definesRematerialized) {
      for (sema::VariableId v : locals())
        if (plan_.rematerializedLocals.count(v))
          declare(v, "[[maybe_unused]] ", "{};");
    } else {
      rematerialize();
    }
    strideCounters();
    if (part == nullptr) {
      statements(s.statements);
    } else {
      // The box is exactly the threads the tests admit: the rematerialized assignments (which
      // come first), then what the tests guard, then the copies their joins make.
      std::vector<const ir::Stmt*> exact;
      for (const RegionStatement& st : s.statements)
        if (plan_.isRematerialized(st))
          exact.push_back(st.statement);
      exact.insert(exact.end(), part->statements.begin(), part->statements.end());
      e_.emitStatements(exact);
      for (auto b = part->branches.rbegin(); b != part->branches.rend(); ++b)
        e_.emitJoinCopies(b->first, b->second);
    }
    e_.indent(-1);
    e_.emitLine("});");
    if (narrowed) {
      e_.indent(-1);
      e_.emitLine("}");
    }
  }

  // `v = syncthreads_count(p)`: every live thread's predicate counted (the barrier: all of them
  // before any goes on), then the block's result stored once (`v` lives once per block).
  void reduction(const SplitStep& s) {
    const auto* a = s.control->as<ir::Assign>();
    const auto* c = a->value->as<ir::IntrinsicCall>();
    e_.emitLineDirective(a);
    e_.emitLine("{");
    e_.indent(1);
    e_.emitLine("pyk::int32 pyk_count = 0, pyk_live = 0;");
    e_.emitLine("pyk::cpu::forEachThread" + shape_ + "(pyk_ctx, " + exited_ + ", " +
                threadLambda());
    e_.indent(1);
    e_.emitLine("(void)pyk_tid;");
    rematerialize();
    e_.emitLine("++pyk_live;");
    e_.emitLine("pyk_count += (" + e_.valueAs(c->args[0], c->args[0]->type) + ") != 0 ? 1 : 0;");
    e_.indent(-1);
    e_.emitLine("});");
    switch (c->intrinsic) {
    case sema::Intrinsic::SyncthreadsAnd:
      e_.setBlockReductionValue("static_cast<pyk::int32>(pyk_count == pyk_live)");
      break;
    case sema::Intrinsic::SyncthreadsOr:
      e_.setBlockReductionValue("static_cast<pyk::int32>(pyk_count != 0)");
      break;
    default:
      e_.setBlockReductionValue("pyk_count");
    }
    e_.emitStatements({a});
    e_.setBlockReductionValue("");
    e_.indent(-1);
    e_.emitLine("}");
  }

  void forLoop(const SplitStep& s) {
    if (s.strideAxis >= 0) {
      gridStrideLoop(s);
      return;
    }
    const auto* f = s.control->as<ir::ForRange>();
    const NumbaType& counter = f->counterType;
    const std::string ct = e_.type(counter);
    std::string start = "0", stop, step = "1";
    e_.emitLineDirective(f);
    e_.emitLine("{");
    e_.indent(1);
    controlContext();
    if (f->start != nullptr)
      start = e_.valueAs(f->start, counter);
    stop = e_.valueAs(f->stop, counter);
    if (f->step != nullptr)
      step = e_.valueAs(f->step, counter);
    e_.emitLine("const " + ct + " pyk_start = " + start + ";");
    e_.emitLine("const " + ct + " pyk_stop = " + stop + ";");
    e_.emitLine("const " + ct + " pyk_step = " + step + ";");
    e_.emitLine("for (" + ct +
                " pyk_i = pyk_start; pyk_step > 0 ? pyk_i < pyk_stop : pyk_i > pyk_stop; "
                "pyk_i += pyk_step) {");
    e_.indent(1);
    const auto* counterVariable = f->target->as<ir::LocalTarget>();
    e_.emitLine(pythonName(kernel_.variableName(counterVariable->variable.variable)) + " = pyk_i;");
    steps(s.body);
    e_.indent(-1);
    e_.emitLine("}");
    e_.indent(-1);
    e_.emitLine("}");
  }

  // A grid-stride loop in lockstep: the block steps `base` from the start less the thread index;
  // each thread loop inside sets the thread's counter to base + its index. First the rounds in
  // which every thread's counter is below stop (no test), then the last ones, with the test.
  void gridStrideLoop(const SplitStep& s) {
    const auto* f = s.control->as<ir::ForRange>();
    const NumbaType& counter = f->counterType;
    const std::string ct = e_.type(counter);
    const std::string d = std::to_string(strideLoops_.size());
    const std::string axis = std::string(1, "xyz"[s.strideAxis]);
    const std::string base = "pyk_base" + d, stop = "pyk_stride_stop" + d;
    e_.emitLineDirective(f);
    e_.emitLine("{");
    e_.indent(1);
    controlContext();
    e_.emitLine("const " + ct + " " + stop + " = " + e_.valueAs(f->stop, counter) + ";");
    e_.emitLine("const " + ct + " pyk_stride_step" + d + " = " + e_.valueAs(f->step, counter) +
                ";");
    e_.emitLine(ct + " " + base + " = " + e_.valueAs(f->start, counter) + " - static_cast<" + ct +
                ">(pyk_ctx.threadIdx." + axis + ");");
    const std::string last = "static_cast<" + ct + ">(pyk_ctx.blockDim." + axis + ") - 1";
    // A thread that breaks out sits the rest of the rounds out: a flag per thread.
    const std::set<const ir::Stmt*> breaks = ownJumpsOf<ir::Break>(f->body);
    const std::string done = breaks.empty() ? std::string() : "pyk_stride_done" + d;
    if (!done.empty())
      e_.emitLine("pyk::uint8 " + done + "[pyk::cpu::kMaxThreadsPerBlock] = {};");
    const sema::VariableId counterVariable = f->target->as<ir::LocalTarget>()->variable.variable;
    strideLoops_.push_back({counterVariable, s.strideAxis, base, stop, ct, done, false});
    const std::map<const ir::Stmt*, std::string> outerJumps = e_.roundJumps();
    std::map<const ir::Stmt*, std::string> jumps = outerJumps;
    for (const ir::Stmt* c : ownJumpsOf<ir::Continue>(f->body))
      jumps[c] = "return; // the thread's round ends";
    for (const ir::Stmt* b : breaks)
      jumps[b] = done + "[pyk_tid] = 1; // the thread leaves the loop\nreturn;";
    e_.setRoundJumps(jumps);
    // The whole rounds ask for the arrays read at the counter some rounds ahead (on x, where a
    // round reads consecutive elements).
    const std::vector<sema::VariableId> ahead =
        s.strideAxis == 0 ? arraysReadAtCounter(kernel_, *f) : std::vector<sema::VariableId>{};
    auto rounds = [&](const std::string& whileTrue,
                      const std::vector<sema::VariableId>& prefetched) {
      e_.emitLine("for (; " + whileTrue + "; " + base + " += pyk_stride_step" + d + ") {");
      e_.indent(1);
      for (sema::VariableId v : prefetched)
        e_.emitLine("pyk::cpu::prefetch_round_ahead(pyk_ctx, " +
                    pythonName(kernel_.variableName(v)) + ", " + base + ", pyk_stride_step" + d +
                    ");");
      steps(s.body);
      e_.indent(-1);
      e_.emitLine("}");
    };
    rounds(base + " + (" + last + ") < " + stop, ahead);
    strideLoops_.back().tested = true;
    rounds(base + " < " + stop, {});
    strideLoops_.pop_back();
    e_.setRoundJumps(outerJumps);
    e_.indent(-1);
    e_.emitLine("}");
  }

  // In a thread loop inside grid-stride loops: the thread's counters, and in their last rounds
  // the end of the thread's turn when one is past its stop.
  void strideCounters() {
    for (const StrideLoop& l : strideLoops_) {
      const std::string name = pythonName(kernel_.variableName(l.counter));
      e_.emitLine(name + " = " + l.base + " + static_cast<" + l.type + ">(pyk_ctx.threadIdx." +
                  std::string(1, "xyz"[l.axis]) + ");");
      if (l.tested)
        e_.emitLine("if (!(" + name + " < " + l.stop + ")) return;");
      if (!l.done.empty())
        e_.emitLine("if (" + l.done + "[pyk_tid] != 0) return;");
    }
  }

  struct StrideLoop {
    sema::VariableId counter;
    int axis;
    std::string base, stop, type;
    std::string done; // the flags of the threads that broke out of the loop, or ""
    bool tested;      // the last rounds: some thread's counter may be past stop
  };
  std::vector<StrideLoop> strideLoops_;

  UnitEmitter& e_;
  const ir::Function& kernel_;
  const BarrierSplitPlan& plan_;
  const std::string exited_;
  std::string shape_; // "<16, 16, 1>": the block shape the unit is compiled for, or ""
};

} // namespace

void emitSplitKernel(UnitEmitter& emitter, const ir::Function& kernel, const BarrierSplitPlan& plan,
                     const uint32_t (&blockShape)[3]) {
  SplitKernelEmitter(emitter, kernel, plan, blockShape).emit();
}

} // namespace pyk::codegen
