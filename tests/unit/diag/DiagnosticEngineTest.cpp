// DiagnosticEngineTest: message formatting, the error limit and clang-style rendering.
#include <gtest/gtest.h>

#include <sstream>

#include "diag/DiagnosticEngine.h"

namespace pyk {
namespace {

TEST(Diagnostics, FormatSubstitutesArgumentsAndBraces) {
  EXPECT_EQ(formatMessage("a {0} b {1} {{x}}", {"1", "2"}), "a 1 b 2 {x}");
  EXPECT_EQ(formatMessage("missing {3}", {"1"}), "missing ");
}

TEST(Diagnostics, RendersLocationSourceLineAndUnderline) {
  SourceFile file("k.pyk", "x = 1\n\ty = undefined_name + 2\n");
  DiagnosticEngine diags(&file);
  diags.report(DiagKind::UnknownName, SourceRange({2, 6}, {2, 20}), {"undefined_name"});
  std::ostringstream out;
  diags.render(out, false);
  EXPECT_EQ(out.str(), "k.pyk:2:6: error: unknown name `undefined_name`\n"
                       "        y = undefined_name + 2\n"
                       "            ^~~~~~~~~~~~~~\n");
}

TEST(Diagnostics, ColourOnlyWhenAsked) {
  SourceFile file("k.pyk", "x\n");
  DiagnosticEngine diags(&file);
  diags.report(DiagKind::UnknownName, SourceRange({1, 1}, {1, 2}), {"x"});
  std::ostringstream plain, coloured;
  diags.render(plain, false);
  diags.render(coloured, true);
  EXPECT_EQ(plain.str().find('\033'), std::string::npos);
  EXPECT_NE(coloured.str().find("\033[1;31merror:"), std::string::npos);
}

TEST(Diagnostics, ErrorLimitStopsWithOneFatal) {
  SourceFile file("k.pyk", "x\n");
  DiagnosticEngine diags(&file, 3);
  for (int i = 0; i < 10; ++i)
    diags.report(DiagKind::UnknownName, SourceRange({1, 1}), {"x"});
  EXPECT_EQ(diags.errorCount(), 3u);
  EXPECT_TRUE(diags.limitReached());
  ASSERT_EQ(diags.diagnostics().size(), 4u);
  EXPECT_EQ(diags.diagnostics().back().kind, DiagKind::TooManyErrors);
}

TEST(Diagnostics, NotesFollowTheirError) {
  SourceFile file("k.pyk", "a = (1]\n");
  DiagnosticEngine diags(&file);
  diags.report(DiagKind::MismatchedBracket, SourceRange({1, 7}, {1, 8}), {"]", "("});
  diags.note(DiagKind::NoteOpenedHere, SourceRange({1, 5}, {1, 6}), {"("});
  std::ostringstream out;
  diags.render(out, false);
  EXPECT_EQ(out.str(), "k.pyk:1:7: error: closing `]` does not match opening `(`\n"
                       "a = (1]\n"
                       "      ^\n"
                       "k.pyk:1:5: note: `(` opened here\n"
                       "a = (1]\n"
                       "    ^\n");
}

} // namespace
} // namespace pyk
