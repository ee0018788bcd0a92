// WaitingCalls: a statement's evaluated parts walked in Python's order, post-order, to the first
// waiting call.
#include "codegen/cpu/WaitingCalls.h"

namespace pyk::codegen {

namespace {

// An expression that reads no memory and has no effect: evaluating it after a call instead of
// before cannot change its value nor what the call sees.
bool withoutEffects(const ir::Node* n) {
  bool pure = true;
  ir::forEachNode(n, [&](const ir::Node* x) {
    switch (x->kind) {
    case ir::NodeKind::Literal:
    case ir::NodeKind::FrozenConstant:
    case ir::NodeKind::Read:
    case ir::NodeKind::IntrinsicValue:
    case ir::NodeKind::Cast:
    case ir::NodeKind::OptionalIsNone:
    case ir::NodeKind::Binary:
    case ir::NodeKind::Unary:
    case ir::NodeKind::Compare:
    case ir::NodeKind::IdentityTest:
    case ir::NodeKind::Not:
    case ir::NodeKind::Logical:
    case ir::NodeKind::LogicalValue:
    case ir::NodeKind::Conditional:
    case ir::NodeKind::MakeTuple:
    case ir::NodeKind::TupleElement:
    case ir::NodeKind::TupleSubscript:
    case ir::NodeKind::VectorMember:
    case ir::NodeKind::ArrayAttribute:
    case ir::NodeKind::ArrayView:
    case ir::NodeKind::Slice:
    case ir::NodeKind::LocalTarget:
      break;
    case ir::NodeKind::IntrinsicCall:
      pure = pure && sema::intrinsicInfo(x->as<ir::IntrinsicCall>()->intrinsic)
                         .has(sema::intrinsic_flags::ThreadPure);
      break;
    default:
      pure = false;
    }
  });
  return pure;
}

// What a statement evaluates before running (not its bodies), in the order Python evaluates it.
std::vector<ir::Node*> evaluatedParts(ir::Stmt* s, bool& eachTrip) {
  eachTrip = false;
  std::vector<ir::Node*> out;
  auto add = [&](ir::Node* n) {
    if (n != nullptr)
      out.push_back(n);
  };
  if (auto* e = s->as<ir::Evaluate>()) {
    add(e->value);
  } else if (auto* a = s->as<ir::Assign>()) {
    add(a->value);
    for (ir::Target* t : a->targets)
      add(t);
  } else if (auto* st = s->as<ir::Store>()) {
    add(st->value);
    add(st->target);
  } else if (auto* i = s->as<ir::If>()) {
    add(i->condition);
  } else if (auto* w = s->as<ir::While>()) {
    add(w->condition);
    eachTrip = true;
  } else if (auto* f = s->as<ir::ForRange>()) {
    add(f->start);
    add(f->stop);
    add(f->step);
  } else if (auto* f = s->as<ir::ForEach>()) {
    add(f->iteration);
  } else if (auto* r = s->as<ir::Return>()) {
    add(r->value);
  } else if (auto* c = s->as<ir::Check>()) {
    add(c->condition);
  } else if (auto* sc = s->as<ir::StoreCharacters>()) {
    add(sc->record);
  }
  return out;
}

// A call found in a statement's evaluated parts, with its parent and what is evaluated before it.

} // namespace

bool isBlockReduction(const ir::Node* n) {
  const auto* c = n->as<ir::IntrinsicCall>();
  return c != nullptr &&
         sema::intrinsicInfo(c->intrinsic).has(sema::intrinsic_flags::BlockReduction);
}

std::optional<WaitingCall> WaitingCallFinder::find(ir::Stmt* s, bool& eachTrip) {
  found_.reset();
  before_.clear();
  for (ir::Node* part : evaluatedParts(s, eachTrip)) {
    visit(part, s, "");
    if (found_)
      break;
  }
  if (found_)
    for (const ir::Node* b : before_)
      if (!withoutEffects(b))
        found_->afterEffects = true;
  return found_;
}

// Post-order, as evaluation goes; `skipped`: the operand holding n may be skipped.
void WaitingCallFinder::visit(ir::Node* n, ir::Node* parent, const std::string& skipped) {
  if (found_)
    return;
  if (auto* c = n->as<ir::Call>(); c != nullptr && waiting_.count(c->callee)) {
    found_ = WaitingCall{c, nullptr, parent, skipped, false};
    return;
  }
  if (isBlockReduction(n) && !done_.count(parent)) {
    found_ = WaitingCall{nullptr, n->as<ir::IntrinsicCall>(), parent, skipped, false};
    return;
  }
  if (n->is<ir::SpreadCall>()) { // `f(*t)`: the call reads the bound tuples
    bool holds = false;
    ir::forEachNode(n, [&](ir::Node* x) {
      if (auto* c = x->as<ir::Call>(); c != nullptr && waiting_.count(c->callee))
        holds = true;
    });
    if (holds) {
      found_ = WaitingCall{nullptr, nullptr, parent, "`f(*args)`", false};
      return;
    }
  }
  size_t index = 0;
  ir::forEachChild(n, [&](ir::Node* child) {
    std::string why = skipped;
    const bool conditional = (n->is<ir::Logical>() || n->is<ir::LogicalValue>()) && index > 0;
    if (conditional)
      why = "an operand of `and` or `or`";
    if (n->is<ir::Conditional>() && index > 0)
      why = "a branch of `... if ... else ...`";
    visit(child, n, why);
    if (!found_)
      before_.push_back(child);
    ++index;
  });
}

} // namespace pyk::codegen
