// EmitLoops: `for` loops as C++ — over `range` (bounds evaluated once, a hidden counter, a plain
// counted loop for a constant step, unrolled on the GPU when short and constant), over
// `enumerate` / `zip` (the shortest sequence; nested, with ranges, tuples and arrays inside),
// over tuples, arrays (items, records, or rows) — and `for`/`while` `else` blocks.
#include <algorithm>

#include "codegen/UnitEmitter.h"
#include "sema/TypeRules.h"

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
  iterationLoop(loop);
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

namespace {
// A tuple of these parts as typing makes it: a UniTuple when they are all one type.
NumbaType tupleOfParts(const std::vector<NumbaType>& parts) {
  const bool uniform =
      !parts.empty() &&
      std::all_of(parts.begin(), parts.end(), [&](const NumbaType& p) { return p == parts[0]; });
  return uniform ? NumbaType::uniTuple(parts[0], static_cast<int>(parts.size()))
                 : NumbaType::tuple(parts);
}
} // namespace

UnitEmitter::Iteration UnitEmitter::iteration(const ast::Expr* iter) {
  Iteration out;
  const auto* call = iter->as<ast::Call>();
  const sema::Intrinsic callee =
      call != nullptr ? spec_->intrinsicOf(call->func) : sema::Intrinsic::None;
  if (callee == sema::Intrinsic::Range) {
    // A range inside zip or enumerate: its bounds once, then start + i * step.
    std::vector<ScalarKind> kinds;
    for (const ast::Expr* a : call->args) {
      const NumbaType* t = typeOf(a);
      if (t == nullptr || !t->isScalar())
        return {};
      kinds.push_back(t->scalarKind());
    }
    const std::optional<ScalarKind> k = sema::rangeIterationType(kinds);
    if (!k)
      return {};
    out.type = NumbaType::scalar(*k);
    const std::string ct = type(out.type);
    const std::string start = temp("start"), stop = temp("stop"), step = temp("step");
    const size_t n = call->args.size();
    line("const " + ct + " " + start + " = " + (n == 1 ? "0" : castTo(call->args[0], out.type)) +
         ";");
    line("const " + ct + " " + stop + " = " + castTo(call->args[n == 1 ? 0 : 1], out.type) + ";");
    line("const " + ct + " " + step + " = " + (n == 3 ? castTo(call->args[2], out.type) : "1") +
         ";");
    out.length = "(" + step + " > 0 ? (" + stop + " > " + start + " ? (pyk::int64)((" + stop +
                 " - " + start + " + " + step + " - 1) / " + step + ") : 0) : (" + stop + " < " +
                 start + " ? (pyk::int64)((" + start + " - " + stop + " - " + step + " - 1) / -" +
                 step + ") : 0))";
    out.item = [=](const std::string& i) {
      return "static_cast<" + ct + ">(" + start + " + " + i + " * " + step + ")";
    };
    out.ok = true;
    return out;
  }
  if (callee == sema::Intrinsic::Enumerate || callee == sema::Intrinsic::Zip) {
    const bool enumerate = callee == sema::Intrinsic::Enumerate;
    std::vector<Iteration> parts;
    std::vector<NumbaType> types;
    std::string start;
    if (enumerate) {
      types.push_back(NumbaType::scalar(ScalarKind::Int64));
      if (call->args.size() == 2) {
        start = temp("start");
        line("const pyk::int64 " + start + " = " + castScalar(call->args[1], ScalarKind::Int64) +
             ";");
      }
    }
    for (size_t a = 0; a < call->args.size() && !(enumerate && a == 1); ++a) {
      parts.push_back(iteration(call->args[a]));
      if (!parts.back().ok)
        return {};
      types.push_back(parts.back().type);
      out.length = out.length.empty()
                       ? parts.back().length
                       : "pyk::min<pyk::int64>(" + out.length + ", " + parts.back().length + ")";
    }
    out.type = tupleOfParts(types);
    const NumbaType tuple = out.type;
    out.item = [this, parts, tuple, enumerate, start](const std::string& i) {
      std::vector<std::string> items;
      if (enumerate)
        items.push_back(start.empty() ? i : "(" + start + " + " + i + ")");
      for (const Iteration& p : parts)
        items.push_back(p.item(i));
      return tupleValue(tuple, items);
    };
    out.ok = true;
    return out;
  }
  const NumbaType* t = typeOf(iter);
  if (t == nullptr || !(t->kind() == NumbaType::Kind::UniTuple || t->isArray()))
    return {};
  const std::string seq = temp("seq");
  line("const " + type(*t) + " " + seq + " = " + expr(iter) + ";");
  if (t->kind() == NumbaType::Kind::UniTuple) {
    out.type = t->elements()[0];
    out.length = std::to_string(t->elements().size()) + "LL";
    out.item = [seq](const std::string& i) { return seq + ".e[" + i + "]"; };
  } else if (t->ndim() == 1) {
    // An item; a record is referred to where it lies.
    out.type = t->elementType();
    out.length = seq + ".shape[0]";
    const std::string address = out.type.isRecord() ? "&" : "";
    out.item = [seq, address](const std::string& i) { return address + seq + "(" + i + ")"; };
  } else {
    // A row: the array without its first dimension (C stays C, as numba types it).
    out.type = t->withShape(t->ndim() - 1,
                            t->layout() == sema::ArrayLayout::C ? sema::ArrayLayout::C
                                                                : sema::ArrayLayout::A,
                            t->readonly());
    out.length = seq + ".shape[0]";
    const std::string layout = sema::layoutName(out.type.layout());
    out.item = [seq, layout](const std::string& i) {
      return "pyk::as_layout<pyk::Layout::" + layout + ">(pyk::first_index_view(" + seq + ", " + i +
             "))";
    };
  }
  out.ok = true;
  return out;
}

void UnitEmitter::iterationLoop(const ast::For* loop) {
  // The iterable evaluated once; the loop runs over the shortest of a zip's parts.
  line("{");
  ++indent_;
  const Iteration it = iteration(loop->iter);
  if (!it.ok) {
    --indent_;
    line("}");
    return unsupported(loop->iter->range, "iterating over this");
  }
  const std::string i = temp("i"), n = temp("n");
  line("const pyk::int64 " + n + " = " + it.length + ";");
  line("for (pyk::int64 " + i + " = 0; " + i + " < " + n + "; ++" + i + ") {");
  ++indent_;
  const std::string item = temp("item");
  line("const " + type(it.type) + " " + item + " = " + it.item(i) + ";");
  assign(loop->target, item, it.type);
  block(loop->body);
  edgeCopies(sema::PhiEdge::LoopBack, loop);
  --indent_;
  line("}");
  --indent_;
  line("}");
}

} // namespace pyk::codegen
