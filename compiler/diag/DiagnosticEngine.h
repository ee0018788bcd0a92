// DiagnosticEngine: collects diagnostics for one source file and renders them like clang.
#pragma once

#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include "diag/Diagnostic.h"
#include "diag/SourceFile.h"

namespace pyk {

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceFile* file = nullptr, unsigned errorLimit = 20)
      : file_(file), errorLimit_(errorLimit) {}

  void setFile(const SourceFile* file) { file_ = file; }
  // While alive, what is reported is in `file` (a module the engine's file imports, whose
  // functions are typed where they are called); the engine's file again after.
  class FileScope {
  public:
    FileScope(DiagnosticEngine& engine, const SourceFile* file)
        : engine_(engine), saved_(engine.current_) {
      engine.current_ = file;
    }
    ~FileScope() { engine_.current_ = saved_; }
    FileScope(const FileScope&) = delete;
    FileScope& operator=(const FileScope&) = delete;

  private:
    DiagnosticEngine& engine_;
    const SourceFile* saved_;
  };
  const SourceFile* file() const { return file_; }

  // Records a diagnostic of `kind` at `range` with its format arguments. Errors past the
  // limit are dropped (one "too many errors" fatal is recorded in their place).
  void report(DiagKind kind, SourceRange range, std::initializer_list<std::string> args = {});
  void report(DiagKind kind, SourceRange range, const std::vector<std::string>& args);
  // Records a diagnostic made elsewhere (one held back in another engine), its notes with it.
  void add(const Diagnostic& diagnostic);
  // Attaches a note to the most recent diagnostic that was kept.
  void note(DiagKind kind, SourceRange range, std::initializer_list<std::string> args = {});

  // While set (non-empty), errors come from typing one specialization, named by `context`
  // (`softmax(float32[:, ::1], int64)`): each gets a note naming it, and an error already reported
  // for another specialization (the same kind, place and message) is not reported again: its
  // note names both. Clear it with "".
  void setSpecialization(std::string context) { specialization_ = std::move(context); }

  unsigned errorCount() const { return errorCount_; }
  bool hasErrors() const { return errorCount_ != 0; }
  // True once the error limit was reached: later phases should stop.
  bool limitReached() const { return limitReached_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

  // Writes every diagnostic as `file:line:col: error: message`, the source line and a caret.
  void render(std::ostream& out, bool color) const;
  // Same for one diagnostic (and its notes).
  void render(std::ostream& out, const Diagnostic& diagnostic, bool color) const;

private:
  // Whether a diagnostic of `severity` is kept: not past the error limit (the first error past
  // it adds the limit's fatal instead); counts the errors kept and sets lastDropped_.
  bool admit(Severity severity);

  const SourceFile* file_;
  const SourceFile* current_ = nullptr; // FileScope's file; null: file_
  unsigned errorLimit_;
  unsigned errorCount_ = 0;
  bool limitReached_ = false;
  bool lastDropped_ = false;
  std::vector<Diagnostic> diagnostics_;
  std::string specialization_;
  // Per diagnostic reported under a specialization: the specializations it was seen in.
  std::vector<std::pair<size_t, std::vector<std::string>>> specializationsOf_;
};

} // namespace pyk
