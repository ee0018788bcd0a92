// ParserTest: the grammar and AstBuilder on every statement and expression form.
#include <gtest/gtest.h>

#include "ParseTestSupport.h"

namespace pyk::test {
namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

#define EXPECT_AST_HAS(parsed, text) EXPECT_TRUE(contains((parsed).ast(), text)) << (parsed).ast()

TEST(Parser, EveryStatementFormParses) {
  const char* source = R"PY(
import numba.cuda as cuda, math
from numba import cuda as c, float32
from .. import x
from . mod import (a as b, c,)
from m import *
@cuda.jit("void(float32[:])", fastmath=True)
def f(a, /, b: int = 1, *args, c, d=2, **kw) -> None:
    global g
    x: int = 1
    y += 2
    z = w = (1, 2)
    del z[0], w
    assert x, "message"
    for i in range(0, 10, -1):
        if i: continue
        elif i > 2: break
        else: pass
    else:
        pass
    while x: x -= 1
    else: x = 0
    with open(p) as fh, lock:
        pass
    with (a as b, c as d,):
        pass
    try:
        raise ValueError("e") from None
    except (A, B) as e:
        pass
    except:
        pass
    else:
        pass
    finally:
        pass
    def inner():
        nonlocal x
        yield x
        yield from g()
    return x
class K(Base, metaclass=M):
    attr = 1
async def co():
    async for a in b:
        await a
    async with c as d:
        pass
try:
    pass
except* ValueError:
    pass
match command.split():
    case [action]: pass
    case [action, obj] if obj: pass
    case Point(x=0, y=0) | Point(1, 2): pass
    case {"k": v, **rest}: pass
    case (1 | -2 | 3.5 | 1+2j | "s" | None | True) as lit: pass
    case [1, *others, _]: pass
    case Color.RED: pass
    case _: pass
)PY";
  Parsed p(source);
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_AST_HAS(p, "posonlyarg[0]: arg `a`");
  EXPECT_AST_HAS(p, "kwonlyarg[0]: arg `c`");
  EXPECT_AST_HAS(p, "kwarg: arg `kw`");
  EXPECT_AST_HAS(p, "ImportFrom module=`..` `x`");
  EXPECT_AST_HAS(p, "ImportFrom module=`.mod` `a` as `b` `c`");
  EXPECT_AST_HAS(p, "Try star");
  EXPECT_AST_HAS(p, "MatchClass kwd=`x` kwd=`y`");
  EXPECT_AST_HAS(p, "MatchMapping rest=`rest`");
  EXPECT_AST_HAS(p, "MatchStar `others`");
  EXPECT_AST_HAS(p, "MatchAs `lit`");
  EXPECT_AST_HAS(p, "FunctionDef async `co`");
  EXPECT_AST_HAS(p, "For async");
  EXPECT_AST_HAS(p, "With async");
  EXPECT_AST_HAS(p, "YieldFrom");
}

TEST(Parser, EveryExpressionFormParses) {
  const char* source = R"PY(
x = [i * 2 for i in range(3) if i if i > 0 for j in y]
s = {i for i in y}
d = {k: v for k, v in z.items()}
g = sum(i for i in y)
t = a if b else c
l = lambda x, *y, z=1, **w: x + 1
n = (m := 10)
c = 1 < x <= 2 != y is not None not in w
b = not a and b or c
u = -x ** -y
bits = a | b ^ c & d << 1 >> 2
m = a @ b // c % d / e
sl = a[1:2, ::3, ..., None, :, *idx]
call = f(*args, a, k=1, **kw)
lit = (0xff, 0o7, 0b1, 1_000, 1.5e-3, 2j, b"bytes" rb'raw', 'a' "b", f"{x!r:>{w}}", ...)
empty = ((), [], {}, (1,), [*a, *b], {**d, 'k': 1}, {1, *s})
unpack, *rest = value
chain = a.b.c(d)[e].f
aw = [await q for q in qs] if False else None
)PY";
  Parsed p(source);
  // `await` outside a function is an error; the rest must parse.
  EXPECT_EQ(p.first(), "20:7: invalid syntax: `await` outside function");
  Parsed ok(std::string(source).substr(0, std::string(source).find("aw =")));
  ASSERT_TRUE(ok.ok()) << ok.errors();
  EXPECT_AST_HAS(ok, "Compare ops=Lt,LtE,NotEq,IsNot,NotIn");
  EXPECT_AST_HAS(ok, "BinOp op=MatMult");
  EXPECT_AST_HAS(ok, "NamedExpr");
  EXPECT_AST_HAS(ok, "DictComp");
  EXPECT_AST_HAS(ok, "GeneratorExp");
  EXPECT_AST_HAS(ok, "Constant bytes \"bytesraw\"");
  EXPECT_AST_HAS(ok, "Constant str \"ab\"");
  EXPECT_AST_HAS(ok, "FormattedValue conversion=r");
  EXPECT_AST_HAS(ok, "Constant int 255");
  EXPECT_AST_HAS(ok, "Constant complex 2j");
  EXPECT_AST_HAS(ok, "Constant Ellipsis");
  EXPECT_AST_HAS(ok, "Starred Store");
}

TEST(Parser, SoftKeywordsAreNamesOutsideMatch) {
  Parsed p("match = 1\ncase = match + 1\nmatch(x)\nprint(match, case)\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_AST_HAS(p, "Name `match` Store");
  EXPECT_AST_HAS(p, "Name `case` Store");
}

TEST(Parser, RangesAreOneBasedAndEndExclusive) {
  Parsed p("x = foo(1)\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_AST_HAS(p, "Call @1:5-1:11");
  EXPECT_AST_HAS(p, "Name `foo` Load @1:5-1:8");
}

TEST(Parser, FStringFieldPositionsPointIntoTheFile) {
  Parsed p("s = f'ab {undefined + 1}'\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_AST_HAS(p, "Name `undefined` Load @1:11-1:20");
  Parsed bad("s = f'ab {1 +}'\n");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.first(), "1:14: f-string: expected an expression, found `)`");
}

TEST(Parser, UnicodeIdentifiersAndColumnsInCodePoints) {
  Parsed p("é = 1\nπr = é + $\n");
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.first(), "2:10: invalid character `$` (U+0024)");
}

TEST(Parser, ByteOrderMarkIsIgnored) {
  Parsed p("\xEF\xBB\xBFx = 1\n");
  EXPECT_TRUE(p.ok()) << p.errors();
}

TEST(Parser, InvalidTargets) {
  EXPECT_EQ(Parsed("f() = 1\n").first(), "1:1: cannot assign to function call");
  EXPECT_EQ(Parsed("1 = x\n").first(), "1:1: cannot assign to literal");
  EXPECT_EQ(Parsed("del 1\n").first(), "1:5: cannot delete literal");
  EXPECT_EQ(Parsed("(a, b) += 1\n").first(), "1:1: cannot use augmented assignment on tuple");
  EXPECT_EQ(Parsed("(a.b := 1)\n").first(),
            "1:2: cannot use assignment expressions with attribute");
  EXPECT_EQ(Parsed("for 1 in x: pass\n").first(), "1:5: cannot assign to literal");
}

TEST(Parser, ParameterAndArgumentOrder) {
  EXPECT_EQ(Parsed("def f(a=1, b): pass\n").first(),
            "1:12: non-default argument follows default argument");
  EXPECT_EQ(Parsed("def f(a, a): pass\n").first(),
            "1:10: duplicate argument `a` in function definition");
  EXPECT_EQ(Parsed("def f(*): pass\n").first(), "1:7: named arguments must follow bare `*`");
  EXPECT_EQ(Parsed("def f(/, a): pass\n").first(), "1:7: at least one argument must precede `/`");
  EXPECT_EQ(Parsed("def f(**k, a): pass\n").first(),
            "1:12: arguments cannot follow var-keyword argument");
  EXPECT_EQ(Parsed("f(a=1, b)\n").first(), "1:8: positional argument follows keyword argument");
  EXPECT_EQ(Parsed("f(x for x in y, 1)\n").first(),
            "1:3: generator expression must be parenthesized");
  EXPECT_EQ(Parsed("f(a=1, a=2)\n").first(), "1:8: keyword argument repeated: `a`");
}

TEST(Parser, StatementsOutsideTheirContext) {
  EXPECT_EQ(Parsed("break\n").first(), "1:1: invalid syntax: `break` outside loop");
  EXPECT_EQ(Parsed("while x:\n  def f():\n    continue\n").first(),
            "3:5: invalid syntax: `continue` not properly in loop");
  EXPECT_EQ(Parsed("class C:\n  return 1\n").first(),
            "2:3: invalid syntax: `return` outside function");
  EXPECT_TRUE(Parsed("for x in y:\n  def f():\n    return 1\n  break\n").ok());
}

TEST(Parser, SeveralErrorsInOneFile) {
  Parsed p("x = (1 +\n     2))\ny = 3\n");
  EXPECT_EQ(p.diags.errorCount(), 1u);
  Parsed q("def f(a=1, b): pass\nf(a=1, 2)\n1 = x\n");
  EXPECT_EQ(q.diags.errorCount(), 3u) << q.errors();
}

} // namespace
} // namespace pyk::test
