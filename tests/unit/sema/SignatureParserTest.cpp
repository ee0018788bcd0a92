// SignatureParserTest: numba signature strings, valid and invalid, with error locations.
#include <gtest/gtest.h>

#include "sema/resolve/SignatureParser.h"

namespace pyk::sema {
namespace {

// Parses `text` as if written `@cuda.jit("text")` on line 1: the value starts at column 12.
struct SignatureCase {
  SourceFile file;
  DiagnosticEngine diags;
  std::optional<FunctionSignature> signature;

  explicit SignatureCase(const std::string& text, bool loneType = false)
      : file("t.pyk", "@cuda.jit(\"" + text + "\")\n"), diags(&file) {
    SourceRange literal{{1, 11}, {1, static_cast<uint32_t>(13 + text.size())}};
    StringLiteralLocation where(literal, text, &file);
    if (loneType) {
      if (std::optional<NumbaType> type = parseTypeSpelling(text, where, diags))
        signature = FunctionSignature{*type, {}};
    } else {
      signature = parseSignature(text, where, diags);
    }
  }

  std::string spelling() const { return signature ? signature->spelling() : "<error>"; }
  // "col-endcol: message" of the first diagnostic.
  std::string error() const {
    if (diags.diagnostics().empty())
      return "";
    const Diagnostic& d = diags.diagnostics().front();
    return std::to_string(d.range.begin.column) + "-" + std::to_string(d.range.end.column) + ": " +
           d.message;
  }
  std::string note() const {
    if (diags.diagnostics().empty() || diags.diagnostics().front().notes.empty())
      return "";
    return diags.diagnostics().front().notes.front().message;
  }
};

std::string parsed(const std::string& text) {
  return SignatureCase(text).spelling();
}
std::string error(const std::string& text) {
  return SignatureCase(text).error();
}

TEST(SignatureParser, KernelSignatures) {
  EXPECT_EQ(parsed("void(float32[:, ::1], int64)"), "void(float32[:, ::1], int64)");
  EXPECT_EQ(parsed("void(float32[::1], float32[:, ::1], int64)"),
            "void(float32[::1], float32[:, ::1], int64)");
  EXPECT_EQ(parsed("void()"), "void()");
  EXPECT_EQ(parsed("none(int32)"), "void(int32)");
  EXPECT_EQ(parsed("  void ( float32 [ : ] ,int64 , )  "), "void(float32[:], int64)");
}

TEST(SignatureParser, ScalarReturnTypes) {
  EXPECT_EQ(parsed("float32(float32, float32)"), "float32(float32, float32)");
  EXPECT_EQ(parsed("f8(f4, i4, u8, b1, c8, c16, f2)"),
            "float64(float32, int32, uint64, boolean, complex64, complex128, float16)");
  EXPECT_EQ(parsed("int_(intp, uintp, float_, double)"), "int64(int64, uint64, float32, float64)");
  EXPECT_EQ(parsed("boolean(bool_, intc, uintc, byte, char)"),
            "boolean(boolean, int32, uint32, uint8, int8)");
  EXPECT_EQ(parsed("float32[:](float32[:])"), "float32[:](float32[:])");
}

TEST(SignatureParser, InferredReturnType) {
  EXPECT_EQ(parsed("(int64, float32)"), "(int64, float32)");
  EXPECT_EQ(parsed("(int64,)"), "(int64,)");
  EXPECT_EQ(parsed("()"), "()");
  SignatureCase c("(int64, float32)");
  ASSERT_TRUE(c.signature);
  EXPECT_FALSE(c.signature->returnType);
  EXPECT_EQ(c.signature->params.size(), 2u);
}

TEST(SignatureParser, ArrayLayouts) {
  auto type = [](const std::string& text) {
    SignatureCase c(text, /*loneType=*/true);
    return c.signature ? c.signature->returnType->str() : c.error();
  };
  EXPECT_EQ(type("int32[::1]"), "array(int32, 1d, C)");
  EXPECT_EQ(type("int32[:]"), "array(int32, 1d, A)");
  EXPECT_EQ(type("float32[:, ::1]"), "array(float32, 2d, C)");
  EXPECT_EQ(type("float32[::1, :]"), "array(float32, 2d, F)");
  EXPECT_EQ(type("float32[:, :]"), "array(float32, 2d, A)");
  EXPECT_EQ(type("float64[:, :, ::1]"), "array(float64, 3d, C)");
  EXPECT_EQ(type("float64[::1, :, :]"), "array(float64, 3d, F)");
  EXPECT_EQ(type("uint8[:,:,:,:,:,:,:,::1]"), "array(uint8, 8d, C)");
  EXPECT_EQ(type("float32[::]"), "array(float32, 1d, A)");
  EXPECT_EQ(type("float32[:,]"), "array(float32, 1d, A)");
  EXPECT_EQ(type("complex128[:, ::1]"), "array(complex128, 2d, C)");
}

TEST(SignatureParser, Tuples) {
  EXPECT_EQ(parsed("UniTuple(int64, 3)(int64)"), "UniTuple(int64, 3)(int64)");
  EXPECT_EQ(parsed("void(UniTuple(float32, 2))"), "void(UniTuple(float32, 2))");
  EXPECT_EQ(parsed("Tuple((int64, float32))(int64)"), "Tuple((int64, float32))(int64)");
  EXPECT_EQ(parsed("Tuple(int64, float32)()"), "Tuple((int64, float32))()");
  EXPECT_EQ(parsed("void(Array(float32, 2, 'C'), Array(int8, 1, \"A\"))"),
            "void(float32[:, ::1], int8[:])");
  SignatureCase c("UniTuple(int64, 3)()");
  EXPECT_EQ(c.signature->returnType->str(), "UniTuple(int64 x 3)");
}

TEST(SignatureParser, UnknownTypeIsLocatedWithSuggestion) {
  SignatureCase c("void(flaot32[:], int64)");
  EXPECT_FALSE(c.signature);
  // `flaot32` starts at offset 5: column 12 + 5.
  EXPECT_EQ(c.error(), "17-24: unknown type `flaot32` in signature");
  EXPECT_EQ(c.note(), "did you mean `float32`?");
  EXPECT_EQ(error("np.float32(int32)"), "12-22: unknown type `np.float32` in signature");
  EXPECT_EQ(error("void(string)"), "17-23: unknown type `string` in signature");
}

TEST(SignatureParser, SyntaxErrorsPointAtTheOffendingCharacter) {
  EXPECT_EQ(error("void(float32"), "24-24: expected `,` or `)` in signature");
  EXPECT_EQ(error("void(float32]"), "24-25: expected `,` or `)` in signature");
  EXPECT_EQ(error("void(float32) x"), "26-27: unexpected `x` after the end of the signature");
  EXPECT_EQ(error(""), "12-12: expected a type in signature");
  EXPECT_EQ(error("void(,)"), "17-18: expected a type in signature");
  EXPECT_EQ(error("void(float32[)"), "25-26: expected `:` or `::1` in signature");
}

TEST(SignatureParser, LayoutErrors) {
  EXPECT_EQ(error("void(float32[:, ::1, :])"),
            "28-31: array layout `::1` must be on the first or last dimension");
  EXPECT_EQ(error("void(float32[::1, ::1])"),
            "30-33: array layout `::1` can be given on one dimension only");
  EXPECT_EQ(error("void(float32[::2])"),
            "25-28: array dimensions in a signature are written `:` or `::1`, not `::2`");
  EXPECT_EQ(error("void(float32[1:])"),
            "25-27: array dimensions in a signature are written `:` or `::1`, not `1:`");
  EXPECT_EQ(error("void(float32[3])"),
            "25-26: array dimensions in a signature are written `:` or `::1`, not `3`");
  EXPECT_EQ(error("void(float32[:,:,:,:,:,:,:,:,:])"),
            "24-43: arrays have at most 8 dimensions, not 9");
}

// Nesting is bounded (the signature fuzzer overflowed the stack with 2,080 `(`): past 64 levels
// an error at the token; so is the number of values a tuple of tuples holds.
// What parses spells back to a text that parses to the same signature (the signature fuzzer's
// property), for the inputs it found where that failed.
TEST(SignatureParser, SpellingsReadBack) {
  for (const std::string& text : {std::string("void(Array(float64, 1, \"F\"))"),
                                  std::string("void(Record(\n\xa7[type=i4;offset=4];12;False))")}) {
    SignatureCase first(text);
    if (!first.signature)
      continue; // refused: fine, as long as it says why
    SignatureCase again(first.spelling());
    ASSERT_TRUE(again.signature) << first.spelling() << " -> " << again.error();
    EXPECT_TRUE(*again.signature == *first.signature)
        << text << " -> " << first.spelling() << " -> " << again.spelling();
  }
}

TEST(SignatureParser, NestingIsBounded) {
  const auto nested = [](int levels) {
    std::string text = "void(";
    for (int i = 1; i < levels; ++i)
      text += "UniTuple(";
    text += "int32";
    for (int i = 1; i < levels; ++i)
      text += ", 2)";
    return text + ")";
  };
  EXPECT_EQ(error(nested(16)), ""); // 2^15 values
  const std::string large = error(nested(18));
  EXPECT_NE(large.find("tuple too large: 131072 values in all, the limit is 65536"),
            std::string::npos)
      << large;
  EXPECT_NE(error("void(UniTuple(UniTuple(UniTuple(int32, 65536), 65536), 65536))")
                .find("tuple too large"),
            std::string::npos);
  std::string deep = "void(";
  for (int i = 0; i < 70; ++i)
    deep += "Tuple((";
  deep = error(deep + "int32");
  EXPECT_NE(deep.find("type nested too deeply (the limit is 64 levels)"), std::string::npos)
      << deep;
  EXPECT_NE(error(std::string(100000, '(')).find("nested too deeply"), std::string::npos);
}

TEST(SignatureParser, VoidAndTupleMistakes) {
  EXPECT_EQ(error("void(void)"), "17-21: `void` is only valid as a return type");
  EXPECT_EQ(error("void[:](int32)"), "12-16: `void` is only valid as a return type");
  EXPECT_EQ(error("(int64)"),
            "12-19: `(int64)` is a single type, not an argument list; write `(int64,)` for one "
            "argument");
  EXPECT_EQ(error("float32"),
            "12-19: signature `float32` is a type, not a function type; write `float32(...)` or "
            "`(...)`");
  EXPECT_EQ(error("void(UniTuple(int64, 0))"),
            "33-34: `UniTuple` count must be an integer from 1 to 65536");
  // The cap is said (it was "a positive integer" for 2**30 too).
  EXPECT_EQ(error("void(UniTuple(float32, 1073741824))"),
            "35-45: `UniTuple` count must be an integer from 1 to 65536");
  EXPECT_EQ(error("void(Array(float32, 2, 'Q'))"),
            "35-38: array layout must be 'C', 'F' or 'A', not 'Q'");
  // A parenthesised return type followed by arguments is a call of that type, as in numba.
  EXPECT_EQ(parsed("(int64)(int32)"), "int64(int32)");
}

TEST(SignatureParser, InexactLiteralFallsBackToTheWholeLiteral) {
  // The written literal differs from the value (an escape): errors cover the literal.
  SourceFile file("t.pyk", "@cuda.jit(\"void(fl\\x61ot)\")\n");
  DiagnosticEngine diags(&file);
  SourceRange literal{{1, 11}, {1, 27}};
  StringLiteralLocation where(literal, "void(flaot)", &file);
  EXPECT_FALSE(where.exact());
  EXPECT_FALSE(parseSignature("void(flaot)", where, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].range.begin.column, 11u);
  EXPECT_EQ(diags.diagnostics()[0].range.end.column, 27u);
}

TEST(SignatureParser, LocationWithoutSourceFile) {
  // Without the file, a literal two columns wider than its value is taken as `"value"`.
  DiagnosticEngine diags;
  StringLiteralLocation where(SourceRange{{3, 5}, {3, 17}}, "void(int3)", nullptr);
  EXPECT_TRUE(where.exact());
  EXPECT_FALSE(parseSignature("void(int3)", where, diags));
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].range.begin.column, 11u);
  EXPECT_EQ(diags.diagnostics()[0].message, "unknown type `int3` in signature");
}

TEST(SignatureParser, PrefixedAndTripleQuotedLiterals) {
  SourceFile file("t.pyk", "x = r'''void(in32)'''\n");
  StringLiteralLocation where(SourceRange{{1, 5}, {1, 22}}, "void(in32)", &file);
  EXPECT_TRUE(where.exact());
  EXPECT_EQ(where.rangeOf(5, 4).begin.column, 14u);
}

} // namespace
} // namespace pyk::sema
