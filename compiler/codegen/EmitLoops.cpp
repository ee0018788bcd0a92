// EmitLoops: `for` loops as C++ — over `range` (bounds evaluated once, a hidden counter, a plain
// counted loop for a constant step, unrolled on the GPU when short and constant), over
// `enumerate` / `zip` (the shortest sequence), over tuples and 1-D arrays — and `for`/`while`
// `else` blocks.
#include <algorithm>

#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::loopEntry(const ast::Stmt* loop, const std::vector<ast::Stmt*>& orelse) {
  edgeCopies(sema::PhiEdge::LoopEntry, loop);
  if (orelse.empty() && storage_.copiesAt(sema::PhiEdge::LoopExit, loop).empty())
    return "";
  const std::string flag = temp("broke");
  line("bool " + flag + " = false;");
  return flag;
}

void UnitEmitter::loopExit(const ast::Stmt* loop, const std::string& flag,
                           const std::vector<ast::Stmt*>& orelse) {
  if (flag.empty())
    return;
  line("if (!" + flag + ") {");
  ++indent_;
  block(orelse);
  edgeCopies(sema::PhiEdge::LoopExit, loop);
  --indent_;
  line("}");
}

void UnitEmitter::visitFor(const ast::For* loop) {
  const std::string flag = loopEntry(loop, loop->orelse);
  breakFlags_.push_back(flag);
  forLoopBody(loop);
  breakFlags_.pop_back();
  loopExit(loop, flag, loop->orelse);
}

void UnitEmitter::forLoopBody(const ast::For* loop) {
  const auto* call = loop->iter->as<ast::Call>();
  const sema::Intrinsic callee =
      call != nullptr ? spec_->intrinsicOf(call->func) : sema::Intrinsic::None;
  if (callee == sema::Intrinsic::Range)
    return rangeLoop(loop, call);
  if (callee == sema::Intrinsic::Enumerate || callee == sema::Intrinsic::Zip)
    return enumerateOrZipLoop(loop, call, callee == sema::Intrinsic::Enumerate);
  sequenceLoop(loop);
}

void UnitEmitter::rangeLoop(const ast::For* loop, const ast::Call* c) {
  // Python evaluates the bounds once and iterates a hidden counter: assigning to the loop
  // variable in the body does not change the iteration.
  NumbaType counter = NumbaType::scalar(ScalarKind::Int64);
  if (const NumbaType* t = typeOf(loop->target))
    counter = *t;
  std::string start = "0", stop, step = "1";
  const std::string ct = type(counter);
  if (c->args.size() == 1) {
    stop = castTo(c->args[0], counter);
  } else {
    start = castTo(c->args[0], counter);
    stop = castTo(c->args[1], counter);
    if (c->args.size() == 3)
      step = castTo(c->args[2], counter);
  }
  // A constant step (the usual case) gives a plain loop the device compiler can count and
  // unroll; a step known only at run time picks the comparison by its sign.
  int stepSign = 1;
  if (c->args.size() == 3) {
    const std::vector<int64_t> folded = constantShape(c->args[2]);
    stepSign = folded.size() == 1 && folded[0] != 0 ? (folded[0] > 0 ? 1 : -1) : 0;
  }
  // A short loop whose bounds are all constants (a tile's `for j in range(TPB)`) is unrolled
  // on the GPU (up to 32 trips), as a CUDA programmer would ask with `#pragma unroll`.
  int64_t trips = -1;
  {
    int64_t bounds[3] = {0, 0, 1};
    bool known = true;
    for (size_t a = 0; a < c->args.size() && known; ++a) {
      const std::vector<int64_t> v = constantShape(c->args[a]);
      known = v.size() == 1;
      if (known)
        bounds[c->args.size() == 1 ? 1 : a] = v[0];
    }
    if (known && bounds[2] != 0)
      trips = bounds[2] > 0 ? (bounds[1] - bounds[0] + bounds[2] - 1) / bounds[2]
                            : (bounds[0] - bounds[1] - bounds[2] - 1) / -bounds[2];
  }
  std::string i = temp("i"), end = temp("stop"), by = temp("step");
  line("{");
  ++indent_;
  line("const " + ct + " " + end + " = " + stop + ";");
  line("const " + ct + " " + by + " = " + step + ";");
  const std::string test = stepSign > 0 ? i + " < " + end
                           : stepSign < 0
                               ? i + " > " + end
                               : by + " > 0 ? " + i + " < " + end + " : " + i + " > " + end;
  if (target_.backend() == Backend::Cuda && trips > 0 && trips <= 32)
    line("#pragma unroll");
  line("for (" + ct + " " + i + " = " + start + "; " + test + "; " + i + " += " + by + ") {");
  ++indent_;
  assign(loop->target, i, counter);
  block(loop->body);
  edgeCopies(sema::PhiEdge::LoopBack, loop);
  --indent_;
  line("}");
  --indent_;
  line("}");
}

void UnitEmitter::enumerateOrZipLoop(const ast::For* loop, const ast::Call* call, bool enumerate) {
  // Each argument a UniTuple or a 1-D array; the loop runs over the shortest.
  std::vector<NumbaType> parts;
  if (enumerate)
    parts.push_back(NumbaType::scalar(ScalarKind::Int64));
  line("{");
  ++indent_;
  std::string length;
  std::vector<std::string> items;
  std::string i = temp("i");
  for (const ast::Expr* a : call->args) {
    const NumbaType* t = typeOf(a);
    if (t == nullptr ||
        !(t->kind() == NumbaType::Kind::UniTuple || (t->isArray() && t->ndim() == 1))) {
      --indent_;
      line("}");
      return unsupported(a->range, "iterating over this");
    }
    std::string seq = temp("seq");
    line("const " + type(*t) + " " + seq + " = " + expr(a) + ";");
    std::string n = t->isArray() ? seq + ".shape[0]" : std::to_string(t->elements().size()) + "LL";
    length = length.empty() ? n : "pyk::min<pyk::int64>(" + length + ", " + n + ")";
    items.push_back(t->isArray() ? seq + "(" + i + ")" : seq + ".e[" + i + "]");
    parts.push_back(t->isArray() ? NumbaType::scalar(t->scalarKind()) : t->elements()[0]);
  }
  if (enumerate)
    items.insert(items.begin(), i);
  bool uniform =
      std::all_of(parts.begin(), parts.end(), [&](const NumbaType& p) { return p == parts[0]; });
  NumbaType element = uniform ? NumbaType::uniTuple(parts[0], static_cast<int>(parts.size()))
                              : NumbaType::tuple(parts);
  line("for (pyk::int64 " + i + " = 0; " + i + " < " + length + "; ++" + i + ") {");
  ++indent_;
  std::vector<std::string> converted;
  for (size_t k = 0; k < items.size(); ++k)
    converted.push_back(cast(
        items[k], k == 0 && enumerate ? NumbaType::scalar(ScalarKind::Int64) : parts[k], parts[k]));
  std::string value = tupleValue(element, converted);
  std::string tuple = temp("item");
  line("const " + type(element) + " " + tuple + " = " + value + ";");
  assign(loop->target, tuple, element);
  block(loop->body);
  edgeCopies(sema::PhiEdge::LoopBack, loop);
  --indent_;
  line("}");
  --indent_;
  line("}");
}

void UnitEmitter::sequenceLoop(const ast::For* loop) {
  const ast::Expr* iter = loop->iter;
  const NumbaType* t = typeOf(iter);
  if (t == nullptr)
    return unsupported(iter->range, "iterating over this");
  std::string seq = temp("seq"), i = temp("i");
  line("{");
  ++indent_;
  line("const " + type(*t) + " " + seq + " = " + expr(iter) + ";");
  if (t->kind() == NumbaType::Kind::UniTuple) {
    line("for (pyk::int64 " + i + " = 0; " + i + " < " + std::to_string(t->elements().size()) +
         "; ++" + i + ") {");
    ++indent_;
    assign(loop->target, seq + ".e[" + i + "]", t->elements()[0]);
  } else if (t->isArray() && t->ndim() == 1) {
    line("for (pyk::int64 " + i + " = 0; " + i + " < " + seq + ".shape[0]; ++" + i + ") {");
    ++indent_;
    assign(loop->target, seq + "(" + i + ")", NumbaType::scalar(t->scalarKind()));
  } else {
    --indent_;
    line("}");
    return unsupported(iter->range, "iterating over `" + t->str() + "`");
  }
  block(loop->body);
  edgeCopies(sema::PhiEdge::LoopBack, loop);
  --indent_;
  line("}");
  --indent_;
  line("}");
}

} // namespace pyk::codegen
