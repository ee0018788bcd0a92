// IrVerifier: the checks of a typed IR module (see IrVerifier.h): the walk of each function's
// statements, targets and iterations in execution order, tracking the versions defined so far;
// the values' checks are in IrVerifierValues.cpp.
#include "ir/IrVerifier.h"

#include "ir/IrPrinter.h"
#include "ir/IrVerifierChecks.h"

namespace pyk::ir {

namespace verification {

void Verifier::run() {
  for (size_t v = 0; v < f_.versions.size(); ++v) {
    const Version& version = f_.versions[v];
    if (version.variable >= f_.variables.size()) {
      problem(nullptr, "version " + std::to_string(v) + " of no variable");
      continue;
    }
    if (version.kind == Version::Kind::Entry || version.kind == Version::Kind::Undefined)
      defined_.insert(v);
    for (const PhiInput& in : version.inputs)
      if (in.version >= f_.versions.size() || f_.versions[in.version].variable != version.variable)
        problem(version.join, "phi " + f_.versionName(v) + " joins a version of another variable");
  }
  block(f_.body);
}

void Verifier::block(const std::vector<Stmt*>& body) {
  for (const Stmt* s : body)
    statement(s);
}

void Verifier::join(const std::set<size_t>& a, const std::set<size_t>& b) {
  defined_.insert(a.begin(), a.end());
  defined_.insert(b.begin(), b.end());
}

void Verifier::definePhis(const Stmt* at, bool loopHead) {
  for (size_t v = 0; v < f_.versions.size(); ++v)
    if (f_.versions[v].kind == Version::Kind::Phi && f_.versions[v].join == at &&
        f_.versions[v].loopHead == loopHead)
      defined_.insert(v);
}

void Verifier::statement(const Stmt* s) {
  switch (s->kind) {
  case NodeKind::Evaluate:
    value(s->as<Evaluate>()->value);
    return;
  case NodeKind::Nop:
    return;
  case NodeKind::Assign: {
    const auto* a = s->as<Assign>();
    value(a->value);
    if (a->targets.empty())
      problem(s, "an assignment without targets");
    for (const Target* t : a->targets)
      target(t);
    return;
  }
  case NodeKind::Store: {
    const auto* st = s->as<Store>();
    value(st->value);
    target(st->target);
    return;
  }
  case NodeKind::StoreCharacters: {
    const auto* st = s->as<StoreCharacters>();
    value(st->record);
    if (!st->record->type.isRecord() || st->record->type.recordLayout().field(st->field) == nullptr)
      problem(s, "characters stored into what is no field of a record");
    return;
  }
  case NodeKind::If: {
    const auto* i = s->as<If>();
    condition(s, i->condition);
    const std::set<size_t> then = branch([&] { block(i->then); });
    const std::set<size_t> otherwise = branch([&] { block(i->otherwise); });
    join(then, otherwise);
    definePhis(s, false);
    return;
  }
  case NodeKind::While: {
    const auto* w = s->as<While>();
    definePhis(s, true);
    condition(s, w->condition);
    loop([&] { block(w->body); });
    block(w->otherwise);
    definePhis(s, false);
    return;
  }
  case NodeKind::ForRange: {
    const auto* r = s->as<ForRange>();
    for (const Expr* bound : {r->start, r->stop, r->step})
      if (bound != nullptr) {
        value(bound);
        expectType(bound, r->counterType, "a range bound");
      }
    definePhis(s, true);
    loop([&] {
      target(r->target);
      block(r->body);
    });
    block(r->otherwise);
    definePhis(s, false);
    return;
  }
  case NodeKind::ForEach: {
    const auto* e = s->as<ForEach>();
    iteration(e->iteration);
    definePhis(s, true);
    loop([&] {
      target(e->target);
      block(e->body);
    });
    block(e->otherwise);
    definePhis(s, false);
    return;
  }
  case NodeKind::Return: {
    const auto* r = s->as<Return>();
    if (r->value != nullptr) {
      value(r->value);
      expectType(r->value, f_.returnType, "the returned value");
    }
    return;
  }
  case NodeKind::Break:
  case NodeKind::Continue:
    if (loopDepth_ == 0)
      problem(s, "outside a loop");
    return;
  case NodeKind::Check: {
    const auto* c = s->as<Check>();
    if (c->condition != nullptr)
      condition(s, c->condition);
    return;
  }
  default:
    problem(s, "not a statement");
  }
}

void Verifier::condition(const Node* at, const Expr* e) {
  value(e);
  if (!isBoolean(e->type))
    problem(at, "a condition of type `" + e->type.str() + "`");
}

void Verifier::target(const Target* t) {
  switch (t->kind) {
  case NodeKind::LocalTarget: {
    const VersionRef& v = t->as<LocalTarget>()->variable;
    if (!versionOf(t, v))
      return;
    const Version& version = f_.versions[v.version];
    if (version.kind != Version::Kind::Def)
      problem(t, "stores to a version that is no assignment");
    else if (!version.type || !(*version.type == t->type))
      problem(t, "stores a `" + t->type.str() + "` into a version of type `" +
                     (version.type ? version.type->str() : "none") + "`");
    defined_.insert(v.version);
    return;
  }
  case NodeKind::ElementTarget: {
    const auto* e = t->as<ElementTarget>();
    arrayItem(t, e->array, e->indices, t->type);
    return;
  }
  case NodeKind::FieldTarget: {
    const Expr* place = t->as<FieldTarget>()->place;
    value(place);
    if (!place->is<RecordField>())
      problem(t, "stores into what is no record field");
    expectType(place, t->type, "the field stored to");
    return;
  }
  case NodeKind::ViewTarget: {
    const Expr* view = t->as<ViewTarget>()->view;
    value(view);
    if (!view->is<ArrayView>())
      problem(t, "stores into what is no array view");
    expectType(view, t->type, "the view stored to");
    return;
  }
  case NodeKind::RecordItemTarget: {
    const Expr* item = t->as<RecordItemTarget>()->item;
    value(item);
    if (!item->is<ArrayElement>() || !item->type.isRecord())
      problem(t, "stores a record into what is no record item");
    return;
  }
  case NodeKind::UnpackTarget: {
    const auto* u = t->as<UnpackTarget>();
    if (!t->type.isTuple() || t->type.elements().size() != u->elements.size())
      problem(t, "unpacks `" + t->type.str() + "` into " + std::to_string(u->elements.size()) +
                     " targets");
    for (const Target* element : u->elements)
      target(element);
    return;
  }
  default:
    problem(t, "not a target");
  }
}

void Verifier::iteration(const Iter* it) {
  switch (it->kind) {
  case NodeKind::RangeIteration: {
    const auto* r = it->as<RangeIteration>();
    for (const Expr* bound : {r->start, r->stop, r->step})
      if (bound != nullptr) {
        value(bound);
        expectType(bound, it->type, "a range bound");
      }
    return;
  }
  case NodeKind::EnumerateIteration: {
    const auto* e = it->as<EnumerateIteration>();
    if (e->start != nullptr) {
      value(e->start);
      if (!isInt64(e->start->type))
        problem(it, "an enumerate start of type `" + e->start->type.str() + "`");
    }
    parts(it, e->parts, true);
    return;
  }
  case NodeKind::ZipIteration:
    parts(it, it->as<ZipIteration>()->parts, false);
    return;
  case NodeKind::SequenceIteration: {
    const Expr* sequence = it->as<SequenceIteration>()->sequence;
    value(sequence);
    if (sequence->type.kind() != NumbaType::Kind::UniTuple && !sequence->type.isArray())
      problem(it, "iterates over a `" + sequence->type.str() + "`");
    return;
  }
  default:
    problem(it, "not an iteration");
  }
}

void Verifier::parts(const Iter* it, const std::vector<Iter*>& parts, bool counted) {
  const size_t offset = counted ? 1 : 0;
  if (!it->type.isTuple() || it->type.elements().size() != parts.size() + offset) {
    problem(it, "items of type `" + it->type.str() + "`");
    return;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    iteration(parts[i]);
    if (!(parts[i]->type == it->type.elements()[i + offset]))
      problem(it, "a part's items are `" + parts[i]->type.str() + "`");
  }
}

bool Verifier::versionOf(const Node* at, const VersionRef& v) {
  if (v.version >= f_.versions.size() || f_.versions[v.version].variable != v.variable) {
    problem(at, "names version " + std::to_string(v.version) + " of another variable");
    return false;
  }
  return true;
}

void Verifier::expectType(const Node* n, const NumbaType& expected, const char* what) {
  const NumbaType* actual = nullptr;
  if (const auto* e = n->as<Expr>())
    actual = &e->type;
  else if (const auto* t = n->as<Target>())
    actual = &t->type;
  if (actual != nullptr && !(*actual == expected))
    problem(n, std::string(what) + " is `" + actual->str() + "`, not `" + expected.str() + "`");
}

void Verifier::expectBoolean(const Expr* e) {
  if (!isBoolean(e->type))
    problem(e, "of type `" + e->type.str() + "`, not boolean");
}

void Verifier::problem(const Node* at, const std::string& what) {
  std::string text = f_.description + ": ";
  if (at != nullptr) {
    std::string node = toText(f_, at);
    if (const size_t end = node.find('\n'); end != std::string::npos)
      node.resize(end);
    text += node + ": ";
  }
  problems_.push_back(text + what);
}

} // namespace verification

std::vector<std::string> verify(const Module& module, const Function& function) {
  std::vector<std::string> problems;
  verification::Verifier(module, function, problems).run();
  return problems;
}

std::vector<std::string> verify(const Module& module) {
  std::vector<std::string> problems;
  for (const auto& f : module.functions())
    verification::Verifier(module, *f, problems).run();
  return problems;
}

} // namespace pyk::ir
