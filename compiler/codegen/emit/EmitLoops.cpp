// EmitLoops: `for` loops as C++ — over a range (bounds evaluated once, a hidden counter, a plain
// counted loop for a constant step, unrolled on the GPU when short and constant), over what else
// the IR iterates (`enumerate` / `zip`: the shortest sequence; nested, with ranges, tuples and
// arrays inside; tuples, arrays: items, records, or rows) — and `for`/`while` `else` blocks.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::loopEntry(const ir::Stmt* loop, const std::vector<ir::Stmt*>& orelse) {
  edgeCopies(sema::PhiEdge::LoopEntry, loop);
  if (orelse.empty() && storage_.copiesAt(sema::PhiEdge::LoopExit, loop).empty())
    return "";
  const std::string flag = temp("broke");
  line("bool " + flag + " = false;");
  return flag;
}

void UnitEmitter::loopExit(const ir::Stmt* loop, const std::string& flag,
                           const std::vector<ir::Stmt*>& orelse) {
  if (flag.empty())
    return;
  line("if (!" + flag + ") {");
  ++indent_;
  block(orelse);
  edgeCopies(sema::PhiEdge::LoopExit, loop);
  --indent_;
  line("}");
}

void UnitEmitter::visitForRange(const ir::ForRange* loop) {
  const std::string flag = loopEntry(loop, loop->otherwise);
  breakFlags_.push_back(flag);
  // Python evaluates the bounds once and iterates a hidden counter: assigning to the loop
  // variable in the body does not change the iteration.
  const NumbaType& counter = loop->counterType;
  const std::string ct = type(counter);
  const std::string start = loop->start != nullptr ? expr(loop->start) : "0";
  const std::string stop = expr(loop->stop);
  const std::string step = loop->step != nullptr ? expr(loop->step) : "1";
  std::string i = temp("i"), end = temp("stop"), by = temp("step");
  line("{");
  ++indent_;
  line("const " + ct + " " + end + " = " + stop + ";");
  line("const " + ct + " " + by + " = " + step + ";");
  // A constant step (the usual case) gives a plain loop the device compiler can count and
  // unroll; a step known only at run time picks the comparison by its sign.
  const std::string test = loop->stepSign > 0 ? i + " < " + end
                           : loop->stepSign < 0
                               ? i + " > " + end
                               : by + " > 0 ? " + i + " < " + end + " : " + i + " > " + end;
  // A short loop whose bounds are all constants (a tile's `for j in range(TPB)`) is unrolled
  // on the GPU (up to 32 trips), as a CUDA programmer would ask with `#pragma unroll`.
  if (target_.backend() == Backend::Cuda && loop->constantTrips > 0 && loop->constantTrips <= 32)
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
  breakFlags_.pop_back();
  loopExit(loop, flag, loop->otherwise);
}

UnitEmitter::Iteration UnitEmitter::iteration(const ir::Iter* it) {
  Iteration out;
  out.type = it->type;
  if (const auto* r = it->as<ir::RangeIteration>()) {
    // A range inside zip or enumerate: its bounds once, then start + i * step.
    const std::string ct = type(out.type);
    const std::string start = temp("start"), stop = temp("stop"), step = temp("step");
    line("const " + ct + " " + start + " = " + (r->start == nullptr ? "0" : expr(r->start)) + ";");
    line("const " + ct + " " + stop + " = " + expr(r->stop) + ";");
    line("const " + ct + " " + step + " = " + (r->step != nullptr ? expr(r->step) : "1") + ";");
    out.length = "(" + step + " > 0 ? (" + stop + " > " + start + " ? (pyk::int64)((" + stop +
                 " - " + start + " + " + step + " - 1) / " + step + ") : 0) : (" + stop + " < " +
                 start + " ? (pyk::int64)((" + start + " - " + stop + " - " + step + " - 1) / -" +
                 step + ") : 0))";
    out.item = [=](const std::string& i) {
      return "static_cast<" + ct + ">(" + start + " + " + i + " * " + step + ")";
    };
    return out;
  }
  if (it->is<ir::EnumerateIteration>() || it->is<ir::ZipIteration>()) {
    const auto* e = it->as<ir::EnumerateIteration>();
    const bool enumerate = e != nullptr;
    const std::vector<ir::Iter*>& partsOf =
        enumerate ? e->parts : it->as<ir::ZipIteration>()->parts;
    std::vector<Iteration> parts;
    std::string start;
    if (enumerate && e->start != nullptr) {
      start = temp("start");
      line("const pyk::int64 " + start + " = " + expr(e->start) + ";");
    }
    for (const ir::Iter* p : partsOf) {
      parts.push_back(iteration(p));
      out.length = out.length.empty()
                       ? parts.back().length
                       : "pyk::min<pyk::int64>(" + out.length + ", " + parts.back().length + ")";
    }
    const NumbaType tuple = out.type;
    out.item = [this, parts, tuple, enumerate, start](const std::string& i) {
      std::vector<std::string> items;
      if (enumerate)
        items.push_back(start.empty() ? i : "(" + start + " + " + i + ")");
      for (const Iteration& p : parts)
        items.push_back(p.item(i));
      return tupleValue(tuple, items);
    };
    return out;
  }
  const ir::Expr* sequence = it->as<ir::SequenceIteration>()->sequence;
  const NumbaType& t = sequence->type;
  const std::string seq = temp("seq");
  const std::string value = expr(sequence);
  line("const " + type(t) + " " + seq + " = " + value + ";");
  if (t.kind() == NumbaType::Kind::UniTuple) {
    out.length = std::to_string(t.elements().size()) + "LL";
    out.item = [seq](const std::string& i) { return seq + ".e[" + i + "]"; };
  } else if (t.ndim() == 1) {
    // An item; a record is referred to where it lies.
    out.length = seq + ".shape[0]";
    const std::string address = out.type.isRecord() ? "&" : "";
    out.item = [seq, address](const std::string& i) { return address + seq + "(" + i + ")"; };
  } else {
    // A row: the array without its first dimension.
    out.length = seq + ".shape[0]";
    const std::string layout = types::layoutName(out.type.layout());
    out.item = [seq, layout](const std::string& i) {
      return "pyk::as_layout<pyk::Layout::" + layout + ">(pyk::first_index_view(" + seq + ", " + i +
             "))";
    };
  }
  return out;
}

void UnitEmitter::visitForEach(const ir::ForEach* loop) {
  const std::string flag = loopEntry(loop, loop->otherwise);
  breakFlags_.push_back(flag);
  // The iterable evaluated once; the loop runs over the shortest of a zip's parts.
  line("{");
  ++indent_;
  const Iteration it = iteration(loop->iteration);
  const std::string i = temp("i"), n = temp("n");
  line("const pyk::int64 " + n + " = " + it.length + ";");
  line("for (pyk::int64 " + i + " = 0; " + i + " < " + n + "; ++" + i + ") {");
  ++indent_;
  const std::string item = temp("item");
  const std::string value = it.item(i);
  line("const " + type(it.type) + " " + item + " = " + value + ";");
  assign(loop->target, item, it.type);
  block(loop->body);
  edgeCopies(sema::PhiEdge::LoopBack, loop);
  --indent_;
  line("}");
  --indent_;
  line("}");
  breakFlags_.pop_back();
  loopExit(loop, flag, loop->otherwise);
}

} // namespace pyk::codegen
