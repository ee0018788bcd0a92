// CpuPlanText: what the CPU pipeline's passes have concluded, as text (`pykc emit --emit=ir
// --print-after=PASS`, the passes' lit tests): the scan, the mode, the uniform locals, the
// split's steps with each statement as the IR prints it, the rematerialized assignments, where
// the locals live.
#include <sstream>

#include "codegen/cpu/CpuPipeline.h"
#include "ir/IrPrinter.h"

namespace pyk::codegen {

namespace {

class PlanText {
public:
  explicit PlanText(const CpuPlanning& p) : p_(p), f_(*p.kernel) {}

  void print(std::ostream& out) {
    out << "cpu plan of " << f_.description << "\n";
    if (!p_.inliningFailure.empty())
      out << "  not inlined: " << p_.inliningFailure << "\n";
    if (p_.inlined != nullptr && p_.uses.empty()) { // after BarrierInlining: the kernel it made
      std::ostringstream text;
      ir::print(text, f_);
      std::istringstream lines(text.str());
      out << "  inlined:\n";
      for (std::string line; std::getline(lines, line);)
        out << "    " << line << "\n";
    }
    for (const ThreadModelUse& use : p_.uses)
      out << "  " << use.function->name << ": "
          << (use.barrier != nullptr ? "barrier " + call(use.barrier) : std::string("no barrier"))
          << (use.warpOperation != nullptr ? ", warp operation " + call(use.warpOperation) : "")
          << "\n";
    out << "  mode: " << describeMode(p_.plan) << "\n";
    if (p_.uniformity) {
      std::string uniform;
      for (size_t v = 0; v < f_.variables.size(); ++v)
        if (!f_.variables[v].parameter && p_.uniformity->uniformVariable(v))
          uniform += (uniform.empty() ? "" : ", ") + f_.variableName(v);
      out << "  uniform locals: " << (uniform.empty() ? "none" : uniform) << "\n";
    }
    if (!p_.whyNot.empty())
      out << "  not split: " << p_.whyNot << "\n";
    if (p_.hoistingConflict)
      out << "  a hoisted local is also written by threads: planned again without hoisting\n";
    if (!p_.split.steps.empty()) {
      out << "  split (" << (p_.hoisting ? "hoisting" : "no hoisting")
          << (p_.lockstepLoops ? ", lockstep loops" : "") << "):\n";
      steps(out, p_.split.steps, 2);
    }
    if (!p_.split.rematerialized.empty()) {
      out << "  rematerialized:\n";
      for (const ir::Stmt* s : p_.split.rematerialized)
        out << "    " << head(s) << "\n";
    }
    if (p_.regions && !p_.regions->loopCounters.empty())
      out << "  loop counters: " << names(p_.regions->loopCounters) << "\n";
    if (!p_.split.perThread.empty() || !p_.split.perBlock.empty())
      out << "  per thread: " << names(p_.split.perThread)
          << "\n  per block: " << names(p_.split.perBlock) << "\n";
  }

private:
  std::string call(const ir::IntrinsicCall* c) const {
    return std::string(sema::intrinsicInfo(c->intrinsic).shortName()) + " @" + sourcePosition(c);
  }
  // A statement's first line as the IR prints it.
  std::string head(const ir::Stmt* s) const {
    std::string text = ir::toText(f_, s);
    if (const size_t end = text.find('\n'); end != std::string::npos)
      text.resize(end);
    return text;
  }
  std::string names(const LocalSet& set) const {
    std::string out;
    for (sema::VariableId v : set)
      out += (out.empty() ? "" : ", ") + f_.variableName(v);
    return out.empty() ? "none" : out;
  }
  std::string box(const std::vector<std::vector<ThreadBound>>& alternatives) const {
    std::string out;
    for (size_t a = 0; a < alternatives.size(); ++a) {
      out += a == 0 ? "" : " | ";
      for (size_t b = 0; b < alternatives[a].size(); ++b) {
        const ThreadBound& bound = alternatives[a][b];
        out += (b == 0 ? "" : " & ") + std::string(bound.global ? "g" : "t") + "xyz"[bound.axis] +
               " " + ir::spellingOf(bound.op) + " " + ir::toText(f_, bound.bound);
      }
    }
    return out;
  }
  void steps(std::ostream& out, const std::vector<SplitStep>& list, int indent) const {
    const std::string pad(static_cast<size_t>(indent) * 2, ' ');
    for (const SplitStep& s : list) {
      switch (s.kind) {
      case SplitStep::Kind::Region:
      case SplitStep::Kind::Uniform:
        out << pad << (s.kind == SplitStep::Kind::Region ? "region" : "uniform")
            << (s.definesRematerialized ? " (rematerializes)" : "") << ":\n";
        for (const RegionStatement& st : s.statements)
          out << pad << "  "
              << (st.guard != nullptr ? "[if " + ir::toText(f_, st.guard->condition) + "] " : "")
              << head(st.statement) << "\n";
        if (!s.narrowing.empty())
          out << pad << "  box: " << box(s.narrowing) << (s.exactParts.empty() ? "" : ", exact")
              << "\n";
        else if (!s.exactParts.empty())
          for (const ExactPart& part : s.exactParts)
            out << pad << "  box: " << box(part.narrowing) << ", exact, "
                << (part.branches.back().second ? "then" : "else") << "\n";
        if (!s.blockTests.empty()) {
          std::vector<std::vector<ThreadBound>> tested(1);
          for (const auto& test : s.blockTests)
            tested[0].push_back(test.second);
          out << pad << "  block tests: " << box(tested) << "\n";
        }
        break;
      case SplitStep::Kind::Reduction:
        out << pad << "reduction: " << head(s.control) << "\n";
        break;
      case SplitStep::Kind::For:
      case SplitStep::Kind::While:
      case SplitStep::Kind::If:
        out << pad << "block"
            << (s.strideAxis >= 0
                    ? std::string(" (grid-stride, lockstep on ") + "xyz"[s.strideAxis] + ")"
                    : std::string())
            << ": " << head(s.control) << "\n";
        steps(out, s.body, indent + 1);
        if (!s.orelse.empty()) {
          out << pad << "otherwise:\n";
          steps(out, s.orelse, indent + 1);
        }
        break;
      }
    }
  }

  const CpuPlanning& p_;
  const ir::Function& f_;
};

} // namespace

void printPlanning(std::ostream& out, const CpuPlanning& planning) {
  PlanText(planning).print(out);
}

} // namespace pyk::codegen
