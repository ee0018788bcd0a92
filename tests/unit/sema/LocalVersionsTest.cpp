// LocalVersions: numba's SSA versions of a function's variables over the AST: a version per
// assignment, phis where paths join with different versions, loop heads, reads of nothing.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"
#include "sema/resolve/LocalVersions.h"

namespace pyk::sema {
namespace {

using test::Resolved;

const CompiledFunction& only(const Resolved& r) {
  return r.module.functions.front();
}

// The versions of variable `name`, as text: `def@L`, `entry`, `phi@L(def@L, def@L)`.
std::string versionsOf(const CompiledFunction& f, const std::string& name) {
  const FunctionScope& scope = f.scope;
  const LocalVersions& lv = scope.versions;
  auto describe = [&](auto&& self, size_t v, int depth) -> std::string {
    const LocalVersion& x = lv.versions[v];
    switch (x.kind) {
    case LocalVersion::Kind::Entry:
      return "entry";
    case LocalVersion::Kind::Undefined:
      return "undefined";
    case LocalVersion::Kind::Def:
      return "def@" + std::to_string(x.name->range.begin.line);
    case LocalVersion::Kind::Phi: {
      std::string out = "phi@" + std::to_string(x.join->range.begin.line);
      if (depth > 0)
        return out;
      out += "(";
      for (size_t i = 0; i < x.inputs.size(); ++i)
        out += (i ? ", " : "") + (x.inputs[i].version == v ? std::string("self")
                                                           : self(self, x.inputs[i].version, 1));
      return out + ")";
    }
    }
    return "?";
  };
  std::string out;
  for (size_t v = 0; v < lv.versions.size(); ++v)
    if (scope.variableName(lv.versions[v].variable) == name)
      out += (out.empty() ? "" : " ") + describe(describe, v, 0);
  return out;
}

// The version the read of `name` on `line` sees.
std::string readOn(const CompiledFunction& f, const std::string& name, uint32_t line) {
  for (const auto& [n, v] : f.scope.versions.ofName)
    if (n->id == name && n->range.begin.line == line && n->ctx == ast::ExprContext::Load) {
      const LocalVersion& x = f.scope.versions.versions[v];
      if (x.kind == LocalVersion::Kind::Def)
        return "def@" + std::to_string(x.name->range.begin.line);
      if (x.kind == LocalVersion::Kind::Phi)
        return "phi@" + std::to_string(x.join->range.begin.line);
      if (x.kind == LocalVersion::Kind::Undefined)
        return "undefined";
      return "entry";
    }
  return "none";
}

const char* kHeader = "from numba import cuda\n\n@cuda.jit\ndef k(a, n):\n"; // body from line 5

TEST(LocalVersions, StraightLineAssignmentsMakeSeparateVersions) {
  Resolved r(std::string(kHeader) + "    x = n\n"      // 5
                                    "    a[0] = x\n"   // 6
                                    "    x = 2.5\n"    // 7
                                    "    a[1] = x\n"); // 8
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(versionsOf(only(r), "x"), "def@5 def@7");
  EXPECT_EQ(readOn(only(r), "x", 6), "def@5");
  EXPECT_EQ(readOn(only(r), "x", 8), "def@7");
  EXPECT_EQ(versionsOf(only(r), "n"), "entry");
}

TEST(LocalVersions, ParametersAssignedToGetNewVersions) {
  Resolved r(std::string(kHeader) + "    a[0] = n\n"   // 5
                                    "    n -= 1\n"     // 6
                                    "    a[1] = n\n"); // 7
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(versionsOf(only(r), "n"), "entry def@6");
  EXPECT_EQ(readOn(only(r), "n", 5), "entry");
  EXPECT_EQ(readOn(only(r), "n", 7), "def@6");
  const auto& aug = only(r).scope.versions.augmentedRead;
  ASSERT_EQ(aug.size(), 1u);
  EXPECT_EQ(only(r).scope.versions.versions[aug.begin()->second].kind, LocalVersion::Kind::Entry);
}

TEST(LocalVersions, IfJoinsDifferentVersionsWithAPhi) {
  Resolved r(std::string(kHeader) + "    if n > 0:\n"   // 5
                                    "        x = 1\n"   // 6
                                    "    else:\n"       // 7
                                    "        x = 2.5\n" // 8
                                    "    a[0] = x\n"    // 9
                                    "    if n > 1:\n"   // 10
                                    "        return\n"  // 11
                                    "    y = x\n");     // 12
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(versionsOf(only(r), "x"), "def@6 def@8 phi@5(def@6, def@8)");
  EXPECT_EQ(readOn(only(r), "x", 9), "phi@5");
  // The branch that returns does not join: no phi at line 10.
  EXPECT_EQ(readOn(only(r), "x", 12), "phi@5");
}

TEST(LocalVersions, AnIfWithoutElseJoinsWithTheVersionBefore) {
  Resolved r(std::string(kHeader) + "    x = 0\n"       // 5
                                    "    if n > 0:\n"   // 6
                                    "        x = 1.5\n" // 7
                                    "    a[0] = x\n");  // 8
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(versionsOf(only(r), "x"), "def@5 def@7 phi@6(def@7, def@5)");
  const LocalVersion& phi = only(r).scope.versions.versions.back();
  ASSERT_EQ(phi.inputs.size(), 2u);
  EXPECT_EQ(phi.inputs[0].edge, PhiEdge::IfThen);
  EXPECT_EQ(phi.inputs[1].edge, PhiEdge::IfElse);
}

TEST(LocalVersions, LoopsHaveHeadPhisFedByEntryBackEdgesAndContinues) {
  Resolved r(std::string(kHeader) + "    s = 0\n"              // 5
                                    "    for i in range(n):\n" // 6
                                    "        if i == 3:\n"     // 7
                                    "            continue\n"   // 8
                                    "        s += 0.5\n"       // 9
                                    "    a[0] = s\n");         // 10
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(versionsOf(only(r), "s"), "def@5 phi@6(def@5, def@9, self) def@9");
  EXPECT_EQ(readOn(only(r), "s", 10), "phi@6");
  const LocalVersions& lv = only(r).scope.versions;
  const LocalVersion& head = lv.versions[lv.headPhis.begin()->second.front()];
  std::vector<PhiEdge> edges;
  for (const PhiInput& in : head.inputs)
    edges.push_back(in.edge);
  EXPECT_EQ(edges,
            (std::vector<PhiEdge>{PhiEdge::LoopEntry, PhiEdge::LoopBack, PhiEdge::Continue}));
  // The loop variable has a head phi too, with no entry input (it is unbound before the loop).
  EXPECT_EQ(versionsOf(only(r), "i"), "phi@6(def@6, def@6) def@6");
}

TEST(LocalVersions, BreaksJoinTheLoopExit) {
  Resolved r(std::string(kHeader) + "    found = -1\n"           // 5
                                    "    for i in range(n):\n"   // 6
                                    "        if a[i] > 0:\n"     // 7
                                    "            found = a[i]\n" // 8
                                    "            break\n"        // 9
                                    "    a[0] = found\n");       // 10
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(readOn(only(r), "found", 10), "phi@6");
  const LocalVersions& lv = only(r).scope.versions;
  const LocalVersion& exit = lv.versions[lv.ofName.at([&] {
    for (const auto& [n, v] : lv.ofName)
      if (n->id == "found" && n->range.begin.line == 10)
        return n;
    return static_cast<const ast::Name*>(nullptr);
  }())];
  ASSERT_EQ(exit.inputs.size(), 2u);
  EXPECT_EQ(exit.inputs[0].edge, PhiEdge::LoopExit);
  EXPECT_EQ(exit.inputs[1].edge, PhiEdge::Break);
}

TEST(LocalVersions, PhisNoReadNeedsAreDead) {
  Resolved r(std::string(kHeader) + "    for v in (1, 2):\n"     // 5
                                    "        a[0] = v\n"         // 6
                                    "    for v in (0.5, 1.5):\n" // 7
                                    "        a[1] = v\n");       // 8
  ASSERT_TRUE(r.ok()) << r.errors();
  const LocalVersions& lv = only(r).scope.versions;
  // The loop variable's phis at both heads (and the exits) feed no read: dead, and not in the
  // join tables, so typing never unifies what flows into them.
  for (const LocalVersion& v : lv.versions) {
    if (v.kind == LocalVersion::Kind::Phi && only(r).scope.variableName(v.variable) == "v") {
      EXPECT_FALSE(v.live);
    }
  }
  for (const auto& [at, phis] : lv.headPhis)
    EXPECT_TRUE(phis.empty());
  EXPECT_EQ(readOn(only(r), "v", 8), "def@7");
}

// numba compiles a read no assignment reaches (its UndefVar): it reads the variable's Undefined
// version, one for all such reads, with a warning; a read in a loop that the body's assignment
// reaches on the next pass reads the phi at the loop's head, as a read on some paths does.
TEST(LocalVersions, ReadsOfNothingReadTheUndefinedVersionWithAWarning) {
  Resolved r(std::string(kHeader) + "    a[0] = x\n"     // 5
                                    "    a[1] = x + 1\n" // 6
                                    "    x = 1\n"        // 7
                                    "    for i in range(n):\n"
                                    "        a[i] = y\n" // 9
                                    "        y = i\n");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_TRUE(r.hasMessage("5:12: `x` is read where no assignment reaches it (Python would raise "
                           "UnboundLocalError): numba compiles the read as an undefined value; "
                           "pyk reads zero"))
      << r.errors();
  EXPECT_EQ(readOn(only(r), "x", 5), "undefined");
  EXPECT_EQ(readOn(only(r), "x", 6), "undefined");
  const LocalVersions& lv = only(r).scope.versions;
  EXPECT_EQ(
      std::count_if(lv.versions.begin(), lv.versions.end(),
                    [](const LocalVersion& v) { return v.kind == LocalVersion::Kind::Undefined; }),
      1); // x's (y's read reads the head's phi, which joins y = i)
  // Assigned on one path only: numba accepts it (the other path reads garbage).
  Resolved partial(std::string(kHeader) + "    if n > 0:\n"
                                          "        x = 1\n"
                                          "    a[0] = x\n");
  EXPECT_TRUE(partial.ok()) << partial.errors();
}

} // namespace
} // namespace pyk::sema
