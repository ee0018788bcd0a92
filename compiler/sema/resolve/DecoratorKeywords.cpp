// DecoratorKeywords: the keyword options of a numba decorator (`device=True`, `fastmath={...}`,
// `max_registers=64`, `target="cuda"`, ...), each checked against the decorator's allowed keywords
// and its expected type, read into the function's DecoratorOptions.
#include "sema/resolve/DecoratorArgumentReader.h"

#include <algorithm>
#include <set>

#include "sema/resolve/SpellingSuggestion.h"

namespace pyk::sema {

namespace {

using Kind = ConstantValue::Kind;

const std::vector<std::string>& allowedKeywords(NumbaDecorator which) {
  static const std::vector<std::string> cudaJit = {
      "device",   "inline",      "link",        "debug",         "opt",
      "lineinfo", "cache",       "fastmath",    "max_registers", "launch_bounds",
      "lto",      "boundscheck", "forceinline", "extensions"};
  static const std::vector<std::string> vectorize = {"target",      "identity", "nopython",
                                                     "forceobj",    "cache",    "fastmath",
                                                     "boundscheck", "debug",    "lineinfo"};
  static const std::vector<std::string> guvectorize = {
      "target",   "identity",    "nopython", "forceobj", "cache",
      "fastmath", "boundscheck", "debug",    "lineinfo", "writable_args"};
  return which == NumbaDecorator::CudaJit     ? cudaJit
         : which == NumbaDecorator::Vectorize ? vectorize
                                              : guvectorize;
}

std::string joinBackticked(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i ? ", `" : "`") + names[i] + "`";
  return out;
}

} // namespace

void DecoratorArgumentReader::readKeywords(const ast::Call& call) {
  std::set<std::string> seen;
  const std::vector<std::string>& allowed = allowedKeywords(match_.which);
  for (const ast::Keyword& k : call.keywords) {
    SourceRange range = k.range.valid() ? k.range : k.value->range;
    if (k.arg.empty()) {
      diags_.report(DiagKind::DecoratorDoubleStarArguments, range, {});
      continue;
    }
    if (!seen.insert(k.arg).second) {
      diags_.report(DiagKind::DecoratorDuplicateKeyword, range, {k.arg});
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), k.arg) == allowed.end()) {
      if (k.arg == "target" && match_.which == NumbaDecorator::CudaJit) {
        diags_.report(DiagKind::DecoratorTargetOnCudaJit, range, {});
        continue;
      }
      diags_.report(DiagKind::DecoratorUnknownKeyword, range, {match_.spelling, k.arg});
      if (std::optional<std::string> guess = closestSpelling(k.arg, allowed))
        diags_.note(DiagKind::NoteDidYouMean, range, {*guess});
      diags_.note(DiagKind::NoteAllowedKeywords, SourceRange(), {joinBackticked(allowed)});
      continue;
    }
    readKeyword(k.arg, k.value);
  }
}

void DecoratorArgumentReader::readKeyword(const std::string& name, const ast::Expr* value) {
  DecoratorOptions& o = out_.options;
  if (name == "device")
    readBool(name, value, o.device);
  else if (name == "debug")
    readBool(name, value, o.debug, /*noneAllowed=*/true);
  else if (name == "opt")
    readOpt(value);
  else if (name == "lineinfo")
    readBool(name, value, o.lineinfo);
  else if (name == "cache")
    readBool(name, value, o.cache);
  else if (name == "lto")
    readBool(name, value, o.lto, true);
  else if (name == "boundscheck")
    readBool(name, value, o.boundscheck, true);
  else if (name == "nopython")
    readBool(name, value, o.nopython);
  else if (name == "forceobj")
    readBool(name, value, o.forceobj);
  else if (name == "forceinline")
    readBool(name, value, o.forceinline);
  else if (name == "fastmath")
    readFastmath(value);
  else if (name == "inline")
    readInline(value);
  else if (name == "link")
    readLink(value);
  else if (name == "max_registers")
    readMaxRegisters(value);
  else if (name == "launch_bounds")
    readLaunchBounds(value);
  else if (name == "target")
    readTarget(value);
  else if (name == "identity")
    readIdentity(value);
  else if (name == "writable_args")
    readWritableArgs(value);
  // `extensions` is passed through by numba; nothing to check.
}

std::optional<ConstantValue> DecoratorArgumentReader::foldKeyword(const std::string& name,
                                                                  const ast::Expr* value) {
  FoldResult r = folder_.fold(value);
  if (r.status() == FoldResult::Status::NotConstant) {
    // A name of the module's: why its value is not known (`setup = cuda.CUSource(...,
    // setup_callback=f)`: "`setup_callback=` of `cuda.CUSource` (pyk calls no Python ...)").
    std::string why = r.reason();
    if (const auto* n = value->as<ast::Name>())
      if (const ModuleSymbol* s = folder_.symbols().find(n->id);
          s != nullptr && s->kind == ModuleSymbolKind::HostValue)
        why = "`" + n->id + "`: " + folder_.symbols().hostValues()[s->index].reason;
    diags_.report(DiagKind::DecoratorNotConstant, value->range,
                  {name, match_.spelling, why.empty() ? "" : " (" + why + ")"});
  }
  if (!r.isConstant())
    return std::nullopt;
  return r.value();
}

void DecoratorArgumentReader::wrongType(const std::string& name, const ast::Expr* value,
                                        const char* expected) {
  diags_.report(DiagKind::DecoratorKeywordType, value->range, {name, match_.spelling, expected});
}

void DecoratorArgumentReader::readBool(const std::string& name, const ast::Expr* value,
                                       std::optional<bool>& field, bool noneAllowed) {
  std::optional<ConstantValue> v = foldKeyword(name, value);
  if (!v)
    return;
  if (v->kind == Kind::Bool)
    field = v->boolValue;
  else if (!(noneAllowed && v->kind == Kind::None))
    wrongType(name, value, noneAllowed ? "`True`, `False` or `None`" : "`True` or `False`");
}

void DecoratorArgumentReader::readFastmath(const ast::Expr* value) {
  const std::vector<ast::Expr*>* elements = ast::tupleOrListElements(value);
  if (const auto* set = value->as<ast::Set>())
    elements = &set->elts;
  if (elements == nullptr) {
    std::optional<ConstantValue> v = foldKeyword("fastmath", value);
    if (v && v->kind == Kind::Bool)
      out_.options.fastmath = v->boolValue;
    else if (v)
      wrongType("fastmath", value, "`True`, `False` or a set of flag names");
    return;
  }
  static const std::vector<std::string> kFlags = {"fast", "nnan",     "ninf", "nsz",
                                                  "arcp", "contract", "afn",  "reassoc"};
  for (const ast::Expr* e : *elements) {
    const auto* c = e->as<ast::Constant>();
    if (c == nullptr || c->valueKind != ast::ConstantKind::Str) {
      wrongType("fastmath", e, "`True`, `False` or a set of flag names");
      continue;
    }
    if (std::find(kFlags.begin(), kFlags.end(), c->strValue) == kFlags.end()) {
      diags_.report(DiagKind::DecoratorUnknownFastmathFlag, e->range, {c->strValue});
      if (std::optional<std::string> guess = closestSpelling(c->strValue, kFlags))
        diags_.note(DiagKind::NoteDidYouMean, e->range, {*guess});
      continue;
    }
    out_.options.fastmathFlags.push_back(c->strValue);
  }
  out_.options.fastmath = !out_.options.fastmathFlags.empty();
}

void DecoratorArgumentReader::readInline(const ast::Expr* value) {
  std::optional<ConstantValue> v = foldKeyword("inline", value);
  if (!v)
    return;
  if (v->kind == Kind::Bool)
    out_.options.inlineMode = v->boolValue ? "always" : "never";
  else if (v->kind == Kind::Str && (v->strValue == "always" || v->strValue == "never"))
    out_.options.inlineMode = v->strValue;
  else
    wrongType("inline", value, "`True`, `False`, `'always'` or `'never'`");
}

void DecoratorArgumentReader::readOpt(const ast::Expr* value) {
  // numba-cuda takes an int too, by its truth (NVVM's -opt=3 if opt else 0): `opt=0`.
  std::optional<ConstantValue> v = foldKeyword("opt", value);
  if (!v)
    return;
  if (v->kind == Kind::Bool)
    out_.options.opt = v->boolValue;
  else if (v->kind == Kind::Int)
    out_.options.opt = v->intValue != 0;
  else if (v->kind != Kind::None)
    wrongType("opt", value, "`True`, `False`, an integer or `None`");
}

void DecoratorArgumentReader::readLink(const ast::Expr* value) {
  // File names and numba-cuda's cuda.CUSource objects, alone or in a list, tuple or set; a list
  // written out is read item by item, so that a wrong item is the one located.
  std::vector<const ast::Expr*> items{value};
  if (const std::vector<ast::Expr*>* elements = ast::tupleOrListElements(value))
    items.assign(elements->begin(), elements->end());
  for (const ast::Expr* e : items) {
    std::optional<ConstantValue> v = foldKeyword("link", e);
    if (!v)
      continue;
    if (std::optional<std::string> why =
            ConstantValue::linkEntries(*v, out_.options.link, out_.options.linkSources))
      wrongType("link", e, why->c_str());
  }
}

void DecoratorArgumentReader::readMaxRegisters(const ast::Expr* value) {
  std::optional<ConstantValue> v = foldKeyword("max_registers", value);
  if (v && v->kind == Kind::Int && v->intValue > 0 && v->intValue <= 255)
    out_.options.maxRegisters = static_cast<int64_t>(v->intValue);
  else if (v)
    wrongType("max_registers", value, "an integer from 1 to 255");
}

void DecoratorArgumentReader::readLaunchBounds(const ast::Expr* value) {
  std::optional<ConstantValue> v = foldKeyword("launch_bounds", value);
  if (!v)
    return;
  std::vector<ConstantValue> items =
      v->kind == Kind::Tuple ? v->elements : std::vector<ConstantValue>{*v};
  bool ok = !items.empty() && items.size() <= 3;
  for (const ConstantValue& item : items)
    ok = ok && item.kind == Kind::Int && item.intValue > 0 && item.intValue <= INT32_MAX;
  if (!ok) {
    wrongType("launch_bounds", value, "a positive integer or a tuple of one to three");
    return;
  }
  for (const ConstantValue& item : items)
    out_.options.launchBounds.push_back(static_cast<int64_t>(item.intValue));
}

void DecoratorArgumentReader::readTarget(const ast::Expr* value) {
  std::optional<ConstantValue> v = foldKeyword("target", value);
  if (!v)
    return;
  if (v->kind != Kind::Str) {
    wrongType("target", value, "a string");
    return;
  }
  if (v->strValue != "cuda" && v->strValue != "cpu" && v->strValue != "parallel") {
    diags_.report(DiagKind::DecoratorUnknownTarget, value->range, {v->strValue});
    // `gpu` is close to `cpu` in spelling, but whoever writes it means the GPU.
    std::optional<std::string> guess =
        v->strValue == "gpu" ? std::optional<std::string>("cuda")
                             : closestSpelling(v->strValue, {"cuda", "cpu", "parallel"});
    if (guess)
      diags_.note(DiagKind::NoteDidYouMean, value->range, {*guess});
    return;
  }
  out_.options.target = v->strValue;
}

void DecoratorArgumentReader::readIdentity(const ast::Expr* value) {
  std::optional<ConstantValue> v = foldKeyword("identity", value);
  if (!v)
    return;
  bool ok = v->kind == Kind::None ||
            (v->kind == Kind::Int && (v->intValue == 0 || v->intValue == 1)) ||
            (v->kind == Kind::Str && v->strValue == "reorderable");
  if (!ok) {
    wrongType("identity", value, "`0`, `1`, `None` or `'reorderable'`");
    return;
  }
  out_.options.identity = v->repr();
}

void DecoratorArgumentReader::readWritableArgs(const ast::Expr* value) {
  const std::vector<ast::Expr*>* elements = nullptr;
  if (const auto* list = value->as<ast::List>())
    elements = &list->elts;
  else if (const auto* tuple = value->as<ast::Tuple>())
    elements = &tuple->elts;
  if (elements == nullptr) {
    wrongType("writable_args", value, "a tuple of argument positions or names");
    return;
  }
  for (const ast::Expr* e : *elements) {
    std::optional<ConstantValue> v = foldKeyword("writable_args", e);
    if (!v)
      continue;
    if (v->kind == Kind::Int) {
      out_.options.writableArgs.push_back(static_cast<int64_t>(v->intValue));
    } else if (v->kind == Kind::Str) {
      const auto& args = def_.args.args;
      auto it = std::find_if(args.begin(), args.end(),
                             [&](const ast::Arg& a) { return a.name == v->strValue; });
      if (it == args.end())
        wrongType("writable_args", e, "a tuple of argument positions or names");
      else
        out_.options.writableArgs.push_back(it - args.begin());
    } else {
      wrongType("writable_args", e, "a tuple of argument positions or names");
    }
  }
}

} // namespace pyk::sema
