// Diagnostic: the table of kinds (from DiagnosticKinds.def) and message formatting.
#include "diag/Diagnostic.h"

namespace pyk {

namespace {
struct KindInfo {
  Severity severity;
  const char* format;
  const char* name;
};

constexpr KindInfo kKinds[] = {
#define DIAGNOSTIC(Kind, Sev, Format) {Severity::Sev, Format, #Kind},
#include "diag/DiagnosticKinds.def"
};
} // namespace

Severity severityOf(DiagKind kind) {
  return kKinds[static_cast<size_t>(kind)].severity;
}
const char* formatOf(DiagKind kind) {
  return kKinds[static_cast<size_t>(kind)].format;
}
const char* nameOf(DiagKind kind) {
  return kKinds[static_cast<size_t>(kind)].name;
}

std::string formatMessage(const char* format, const std::vector<std::string>& args) {
  std::string out;
  for (const char* p = format; *p; ++p) {
    if (p[0] == '{' && p[1] == '{') {
      out += '{';
      ++p;
    } else if (p[0] == '}' && p[1] == '}') {
      out += '}';
      ++p;
    } else if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}') {
      size_t index = static_cast<size_t>(p[1] - '0');
      if (index < args.size())
        out += args[index];
      p += 2;
    } else {
      out += *p;
    }
  }
  return out;
}

} // namespace pyk
