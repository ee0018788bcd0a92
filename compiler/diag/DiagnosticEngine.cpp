// DiagnosticEngine: collects diagnostics for one source file and renders them like clang.
#include "diag/DiagnosticEngine.h"

#include <algorithm>

namespace pyk {

namespace {
constexpr const char* kBold = "\033[1m";
constexpr const char* kRed = "\033[1;31m";
constexpr const char* kMagenta = "\033[1;35m";
constexpr const char* kCyan = "\033[1;36m";
constexpr const char* kGreen = "\033[1;32m";
constexpr const char* kReset = "\033[0m";

const char* severityLabel(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  case Severity::Fatal:
    return "fatal error";
  }
  return "error";
}

const char* severityColor(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return kCyan;
  case Severity::Warning:
    return kMagenta;
  default:
    return kRed;
  }
}

// Splits UTF-8 text into code points (as byte strings); each byte that is not part of valid
// UTF-8 becomes "?", so an echoed line never sends a terminal invalid text.
std::vector<std::string_view> codePoints(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool valid = len != 0 && i + len <= text.size();
    for (size_t k = 1; valid && k < len; ++k)
      valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (!valid) {
      out.push_back("?");
      ++i;
      continue;
    }
    out.push_back(text.substr(i, len));
    i += len;
  }
  return out;
}
} // namespace

void DiagnosticEngine::report(DiagKind kind, SourceRange range,
                              std::initializer_list<std::string> args) {
  report(kind, range, std::vector<std::string>(args));
}

void DiagnosticEngine::report(DiagKind kind, SourceRange range,
                              const std::vector<std::string>& args) {
  Severity severity = severityOf(kind);
  // A repeat below counts too: whoever watches the error count sees the failure.
  if (!admit(severity))
    return;
  std::string message = formatMessage(formatOf(kind), args);
  if (!specialization_.empty() && severity == Severity::Error) {
    // Seen before, for another specialization: name this one too, report nothing new.
    for (auto& [index, contexts] : specializationsOf_) {
      Diagnostic& seen = diagnostics_[index];
      if (seen.kind != kind || !(seen.range.begin == range.begin) ||
          !(seen.range.end == range.end) || seen.message != message)
        continue;
      if (std::find(contexts.begin(), contexts.end(), specialization_) == contexts.end())
        contexts.push_back(specialization_);
      std::string names;
      for (size_t i = 0; i < contexts.size(); ++i)
        names += (i == 0                     ? ""
                  : i + 1 == contexts.size() ? " and "
                                             : ", ") +
                 ("`" + contexts[i] + "`");
      seen.notes.front().message = formatMessage(formatOf(DiagKind::NoteInSpecialization), {names});
      lastDropped_ = true;
      return;
    }
  }
  diagnostics_.push_back({kind, severity, range, std::move(message), {}, current_});
  if (!specialization_.empty() && severity == Severity::Error) {
    specializationsOf_.push_back({diagnostics_.size() - 1, {specialization_}});
    diagnostics_.back().notes.push_back(
        {DiagKind::NoteInSpecialization,
         Severity::Note,
         SourceRange(),
         formatMessage(formatOf(DiagKind::NoteInSpecialization), {"`" + specialization_ + "`"}),
         {}});
  }
}

void DiagnosticEngine::add(const Diagnostic& diagnostic) {
  if (admit(diagnostic.severity))
    diagnostics_.push_back(diagnostic);
}

bool DiagnosticEngine::admit(Severity severity) {
  lastDropped_ = limitReached_;
  if (limitReached_)
    return false;
  if (severity != Severity::Error && severity != Severity::Fatal)
    return true;
  if (errorCount_ >= errorLimit_) {
    limitReached_ = true;
    lastDropped_ = true;
    diagnostics_.push_back({DiagKind::TooManyErrors,
                            Severity::Fatal,
                            SourceRange(),
                            formatOf(DiagKind::TooManyErrors),
                            {}});
    return false;
  }
  ++errorCount_;
  return true;
}

void DiagnosticEngine::note(DiagKind kind, SourceRange range,
                            std::initializer_list<std::string> args) {
  if (lastDropped_ || diagnostics_.empty())
    return;
  diagnostics_.back().notes.push_back(
      {kind,
       Severity::Note,
       range,
       formatMessage(formatOf(kind), std::vector<std::string>(args)),
       {},
       current_});
}

void DiagnosticEngine::render(std::ostream& out, bool color) const {
  // In source order, whichever phase found them; those without a location (the error limit's
  // fatal among them) come last, in the order they were reported.
  std::vector<const Diagnostic*> ordered;
  for (const Diagnostic& diagnostic : diagnostics_)
    ordered.push_back(&diagnostic);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->range.valid() != b->range.valid())
      return a->range.valid();
    if ((a->file != nullptr) != (b->file != nullptr))
      return b->file != nullptr; // the engine's own file first, then the modules it imports
    return a->range.valid() && a->range.begin < b->range.begin;
  });
  for (const Diagnostic* diagnostic : ordered)
    render(out, *diagnostic, color);
}

void DiagnosticEngine::render(std::ostream& out, const Diagnostic& d, bool color) const {
  const SourceFile* file = d.file != nullptr ? d.file : file_;
  if (color)
    out << kBold;
  if (file != nullptr) {
    out << file->path() << ':';
    if (d.range.valid())
      out << d.range.begin.line << ':' << d.range.begin.column << ':';
    out << ' ';
  } else {
    out << "pykc: ";
  }
  if (color)
    out << severityColor(d.severity);
  out << severityLabel(d.severity) << ':';
  if (color)
    out << kReset << kBold;
  out << ' ' << d.message;
  if (color)
    out << kReset;
  out << '\n';

  if (file != nullptr && d.range.valid() && d.range.begin.line <= file->lineCount()) {
    // The source line with tabs expanded, then a caret under the range's first column and
    // tildes under the rest of the range on that line.
    std::vector<std::string_view> chars = codePoints(file->line(d.range.begin.line));
    std::string shown;
    size_t width = 0;                  // display columns of `shown`, one per code point
    std::vector<size_t> displayColumn; // display column of each code point
    for (std::string_view ch : chars) {
      displayColumn.push_back(width);
      if (ch == "\t") {
        size_t spaces = 8 - width % 8;
        shown.append(spaces, ' ');
        width += spaces;
        continue;
      }
      if (ch.size() == 1 && static_cast<unsigned char>(ch[0]) < 0x20)
        shown += ' '; // other control characters would garble the terminal
      else
        shown += ch;
      ++width;
    }
    auto displayAt = [&](uint32_t column) -> size_t {
      if (column == 0)
        return 0;
      size_t index = column - 1;
      if (index < displayColumn.size())
        return displayColumn[index];
      return width + (index - displayColumn.size());
    };
    size_t caret = displayAt(d.range.begin.column);
    size_t end = caret + 1;
    if (d.range.end.line == d.range.begin.line && d.range.end.column > d.range.begin.column)
      end = std::max(end, displayAt(d.range.end.column));
    else if (d.range.end.line > d.range.begin.line)
      end = std::max(end, width);
    std::string marker(caret, ' ');
    marker += '^';
    if (end > caret + 1)
      marker.append(end - caret - 1, '~');
    out << shown << '\n';
    if (color)
      out << kGreen;
    out << marker;
    if (color)
      out << kReset;
    out << '\n';
  }
  for (const Diagnostic& note : d.notes)
    render(out, note, color);
}

} // namespace pyk
