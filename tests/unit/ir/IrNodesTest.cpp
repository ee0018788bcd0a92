// IrNodes: what is generated from IrNodes.def — the kinds' names and families, the child
// traversal in field order, the visitors' dispatch and fallback, and the printer's text.
#include <gtest/gtest.h>

#include "ir/IrPrinter.h"
#include "ir/IrVisitor.h"

namespace pyk::test {
namespace {

using types::NumbaType;
using types::ScalarKind;

TEST(IrNodes, KindsHaveTheirNamesAndFamilies) {
  EXPECT_STREQ(ir::nodeKindName(ir::NodeKind::IntrinsicCall), "IntrinsicCall");
  EXPECT_EQ(ir::familyOf(ir::NodeKind::Binary), ir::Family::Expr);
  EXPECT_EQ(ir::familyOf(ir::NodeKind::ForRange), ir::Family::Stmt);
  EXPECT_EQ(ir::familyOf(ir::NodeKind::UnpackTarget), ir::Family::Target);
  EXPECT_EQ(ir::familyOf(ir::NodeKind::ZipIteration), ir::Family::Iter);
}

// `if c: ... else: ...` with a Conditional value: children in the order IrNodes.def lists them.
TEST(IrNodes, ChildrenComeInFieldOrder) {
  ir::Module m;
  auto* c = m.make<ir::Conditional>();
  auto* cond = m.make<ir::Literal>();
  auto* then = m.make<ir::Literal>();
  auto* otherwise = m.make<ir::Literal>();
  c->condition = cond;
  c->then = then;
  c->otherwise = otherwise;
  std::vector<const ir::Node*> children;
  ir::forEachChild(static_cast<const ir::Node*>(c),
                   [&](const ir::Node* n) { children.push_back(n); });
  EXPECT_EQ(children, (std::vector<const ir::Node*>{cond, then, otherwise}));

  auto* r = m.make<ir::ForRange>();
  r->stop = then; // start and step absent: not visited
  r->target = m.make<ir::LocalTarget>();
  r->body = {m.make<ir::Break>()};
  children.clear();
  ir::forEachChild(static_cast<const ir::Node*>(r),
                   [&](const ir::Node* n) { children.push_back(n); });
  EXPECT_EQ(children, (std::vector<const ir::Node*>{r->target, then, r->body[0]}));
}

struct KindCounter : ir::ExprVisitor<KindCounter, std::string> {
  std::string visitBinary(const ir::Binary*) { return "binary"; }
  std::string visitOther(const ir::Expr* e) {
    return std::string("other ") + ir::nodeKindName(e->kind);
  }
};

TEST(IrNodes, VisitorsDispatchOnTheKindAndFallBack) {
  ir::Module m;
  KindCounter v;
  EXPECT_EQ(v.visit(m.make<ir::Binary>()), "binary");
  EXPECT_EQ(v.visit(m.make<ir::Read>()), "other Read");
}

TEST(IrNodes, ThePrinterWritesEachNodeFromItsFields) {
  ir::Module m;
  ir::Function* f = m.addFunction();
  f->description = "k(int64) -> none";
  f->variables = {{"n", true, NumbaType::scalar(ScalarKind::Int64)}};
  f->versions.resize(1);
  f->versions[0].kind = ir::Version::Kind::Entry;
  f->versions[0].type = NumbaType::scalar(ScalarKind::Int64);
  auto* read = m.make<ir::Read>();
  read->type = NumbaType::scalar(ScalarKind::Int64);
  read->variable = {0, 0};
  auto* cast = m.make<ir::Cast>();
  cast->type = NumbaType::scalar(ScalarKind::Float32);
  cast->value = read;
  cast->written = true;
  EXPECT_EQ(ir::toText(*f, cast), "cast written(read n.0 : int64) : float32");
  auto* element = m.make<ir::TupleElement>();
  element->type = NumbaType::scalar(ScalarKind::Int64);
  element->tuple = read;
  element->index = 1;
  EXPECT_EQ(ir::toText(*f, element), "tuple_element index=1(read n.0 : int64) : int64");
}

} // namespace
} // namespace pyk::test
