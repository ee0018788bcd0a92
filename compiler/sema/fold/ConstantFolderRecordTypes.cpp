// ConstantFolderRecordTypes: the named-tuple classes a module builds at its top level
// (`collections.namedtuple`), folded at compile time. (Structured dtypes:
// ConstantFolderRecordDtypes.cpp.)
#include "sema/fold/ConstantFolder.h"

#include <cctype>
#include <set>
#include <sstream>

#include "sema/fold/ConstantFolderInternal.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

bool isPythonKeyword(const std::string& s) {
  static const char* const keywords[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (const char* k : keywords)
    if (s == k)
      return true;
  return false;
}

// An ASCII Python identifier (namedtuple's names in kernels are ASCII in practice; a non-ASCII
// one is refused rather than mangled wrongly).
bool isAsciiIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

} // namespace

FoldResult ConstantFolder::evalNamedTupleClass(const ast::Call* call, int depth) {
  if (!call->keywords.empty())
    return notFolded("a call of `collections.namedtuple` with keyword arguments");
  if (call->args.size() != 2)
    return invalid("`namedtuple` takes a class name and the field names");
  FoldResult name = eval(call->args[0], depth + 1);
  if (!name.isConstant())
    return name;
  if (name.value().kind != Kind::Str)
    return invalid("the class name of a `namedtuple` must be a string");
  std::vector<std::string> fields;
  const ast::Expr* spec = call->args[1];
  const std::vector<ast::Expr*>* items = nullptr;
  if (const auto* list = spec->as<ast::List>())
    items = &list->elts;
  else if (const auto* tuple = spec->as<ast::Tuple>())
    items = &tuple->elts;
  if (items) {
    for (const ast::Expr* item : *items) {
      FoldResult f = eval(item, depth + 1);
      if (!f.isConstant())
        return f;
      if (f.value().kind != Kind::Str)
        return invalid("the field names of a `namedtuple` must be strings");
      fields.push_back(f.value().strValue);
    }
  } else {
    FoldResult f = eval(spec, depth + 1);
    if (!f.isConstant())
      return f;
    if (f.value().kind != Kind::Str)
      return invalid("the field names of a `namedtuple` must be a string or a list of strings");
    std::string text = f.value().strValue;
    for (char& c : text)
      if (c == ',')
        c = ' ';
    std::istringstream words(text);
    for (std::string w; words >> w;)
      fields.push_back(w);
  }
  const std::string& className = name.value().strValue;
  if (!isAsciiIdentifier(className) || isPythonKeyword(className))
    return invalid("`" + className + "` is not a valid class name for a `namedtuple`");
  std::set<std::string> seen;
  for (const std::string& f : fields) {
    if (!isAsciiIdentifier(f) || isPythonKeyword(f))
      return invalid("`" + f + "` is not a valid field name for a `namedtuple`");
    if (f[0] == '_')
      return invalid("the field name `" + f + "` of a `namedtuple` starts with an underscore");
    if (!seen.insert(f).second)
      return invalid("the `namedtuple` has two fields named `" + f + "`");
  }
  return FoldResult::constant(ConstantValue::namedTupleClass(className, fields));
}

} // namespace pyk::sema
