// Diagnostic: one message pykc reports, with its kind, severity, location and arguments.
#pragma once

#include <string>
#include <vector>

#include "diag/SourceLocation.h"

namespace pyk {

class SourceFile;

enum class Severity { Note, Warning, Error, Fatal };

enum class DiagKind {
#define DIAGNOSTIC(Kind, Severity, Format) Kind,
#include "diag/DiagnosticKinds.def"
};

struct Diagnostic {
  DiagKind kind;
  Severity severity;
  SourceRange range;   // where the caret / underline goes; invalid for file-less messages
  std::string message; // formatted
  std::vector<Diagnostic> notes;
  // The file `range` is in, when not the engine's own (a module the file imports); set by the
  // engine from its current file (DiagnosticEngine::FileScope).
  const SourceFile* file = nullptr;
};

Severity severityOf(DiagKind kind);
const char* formatOf(DiagKind kind);
const char* nameOf(DiagKind kind);
// Substitutes {0}, {1}, ... in `format`; `{{` and `}}` stand for braces.
std::string formatMessage(const char* format, const std::vector<std::string>& args);

} // namespace pyk
