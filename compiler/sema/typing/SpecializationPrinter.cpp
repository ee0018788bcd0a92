// SpecializationPrinter: `pykc emit --emit=typed`, each source line of a typed function followed
// by the type of every expression on it (as numba's inspect_types shows its typed IR).
#include "sema/typing/SpecializationPrinter.h"

#include <algorithm>

#include "sema/catalog/LibraryModule.h"

namespace pyk::sema {

namespace {

// The source text of a range on one line (code-point columns), or its first line and "...".
std::string sourceText(const SourceFile& file, const SourceRange& r) {
  std::string_view line = file.line(r.begin.line);
  auto byteOf = [&](uint32_t column) {
    size_t byte = 0;
    for (uint32_t c = 1; c < column && byte < line.size(); ++c) {
      ++byte;
      while (byte < line.size() && (static_cast<unsigned char>(line[byte]) & 0xC0) == 0x80)
        ++byte;
    }
    return byte;
  };
  size_t begin = byteOf(r.begin.column);
  if (r.end.line != r.begin.line)
    return std::string(line.substr(begin)) + " ...";
  size_t end = byteOf(r.end.column);
  return std::string(line.substr(begin, end > begin ? end - begin : 0));
}

// The file `spec`'s function is defined in.
const SourceFile& definingFile(const Specialization& spec, const SourceFile& file) {
  return spec.function->library != nullptr ? spec.function->library->file : file;
}

} // namespace

TypedFunctionText typedFunctionText(const Specialization& spec, const SourceFile& compiled) {
  const CompiledFunction& fn = *spec.function;
  const SourceFile& file = definingFile(spec, compiled);
  TypedFunctionText out;
  out.heading = std::string(nameOf(fn.kind)) + ' ' + spec.describe();
  out.file = file.path();
  const FunctionScope& scope = fn.scope;
  // Each variable with the distinct types of its SSA versions, in the order they appear
  // (`local x: int64 | float64` where numba types an assignment `x = 1` and a later `x = 2.5`
  // apart).
  std::vector<std::vector<NumbaType>> versionTypes(scope.params.size() + scope.locals.size());
  for (size_t v = 0; v < scope.versions.versions.size(); ++v) {
    const NumbaType* t = spec.versionType(v);
    std::vector<NumbaType>& seen = versionTypes[scope.versions.versions[v].variable];
    if (t != nullptr && std::find(seen.begin(), seen.end(), *t) == seen.end())
      seen.push_back(*t);
  }
  auto types = [&](size_t var) {
    std::string text;
    for (const NumbaType& t : versionTypes[var])
      text += (text.empty() ? "" : " | ") + t.str();
    return text.empty() ? std::string("?") : text;
  };
  for (size_t i = 0; i < scope.params.size() && i < spec.params.size(); ++i)
    out.variables.push_back({"param", scope.params[i], types(i)});
  for (size_t i = 0; i < scope.locals.size(); ++i)
    out.variables.push_back({"local", scope.locals[i], types(scope.params.size() + i)});

  // Expressions by the line they start on; within a line by column, outer before inner.
  std::map<uint32_t, std::vector<std::pair<const ast::Expr*, const NumbaType*>>> byLine;
  for (const auto& [expr, type] : spec.exprTypes)
    byLine[expr->range.begin.line].push_back({expr, &type});
  const ast::FunctionDef* def = fn.def;
  uint32_t first = def->body.empty() ? def->range.begin.line : def->body.front()->range.begin.line;
  for (uint32_t line = first; line <= def->range.end.line; ++line) {
    auto it = byLine.find(line);
    if (it == byLine.end())
      continue;
    auto& entries = it->second;
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      if (a.first->range.begin.column != b.first->range.begin.column)
        return a.first->range.begin.column < b.first->range.begin.column;
      return b.first->range.end < a.first->range.end; // the wider first
    });
    std::vector<TypedFunctionText::Expression>& texts = out.lines[line];
    for (const auto& [expr, type] : entries)
      texts.push_back({sourceText(file, expr->range), type->str()});
  }
  return out;
}

void printSpecialization(const Specialization& spec, const SourceFile& compiled,
                         std::ostream& out) {
  const TypedFunctionText typed = typedFunctionText(spec, compiled);
  const SourceFile& file = definingFile(spec, compiled);
  out << typed.heading << (&file != &compiled ? " (" + typed.file + ")" : std::string()) << '\n';
  for (const TypedFunctionText::Variable& v : typed.variables)
    out << "  " << v.role << ' ' << v.name << ": " << v.types << '\n';
  for (const auto& [line, expressions] : typed.lines) {
    out << "  " << line << ": " << file.line(line) << '\n';
    for (const TypedFunctionText::Expression& e : expressions)
      out << "    " << e.text << " :: " << e.type << '\n';
  }
}

} // namespace pyk::sema
