// LanguageStatements: the hand-written part of docs/LANGUAGE.md (statements, types, limits),
// embedded in pyk_language_reference at build time from compiler/tools/language_statements.md.
#pragma once

#include <string_view>

namespace pyk::tools {

// compiler/tools/language_statements.md as it was when pyk_language_reference was built.
std::string_view languageStatementsText();

} // namespace pyk::tools
