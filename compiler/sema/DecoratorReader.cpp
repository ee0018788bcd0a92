// DecoratorReader: recognises numba's decorators on a function (`@cuda.jit`, `@vectorize`,
// `@guvectorize`, through any import alias), classifies the function and checks the arguments.
#include "sema/DecoratorReader.h"

#include <algorithm>
#include <set>

#include "sema/ConstantFolder.h"
#include "sema/DottedName.h"
#include "sema/ModuleApiCatalog.h"
#include "sema/SignatureParser.h"
#include "sema/SpellingSuggestion.h"
#include "sema/TypeExpressionReader.h"

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

bool isStr(const ast::Expr* e) {
  const auto* c = e->as<ast::Constant>();
  return c != nullptr && c->valueKind == ast::ConstantKind::Str;
}

class DecoratorArgumentReader {
public:
  DecoratorArgumentReader(const DecoratorMatch& match, const ast::FunctionDef& def,
                          const ModuleSymbolTable& symbols, DiagnosticEngine& diags,
                          CompiledFunction& out)
      : match_(match), def_(def), symbols_(symbols), diags_(diags), folder_(symbols, diags),
        out_(out) {}

  void read() {
    out_.name = def_.name;
    out_.def = &def_;
    out_.decoratorName = match_.spelling;
    out_.decoratorRange = match_.decorator->range;
    const ast::Call* call = match_.call;
    if (call != nullptr)
      readKeywords(*call);
    switch (match_.which) {
    case NumbaDecorator::CudaJit:
      out_.kind = out_.options.device.value_or(false) ? CompiledFunctionKind::DeviceFunction
                                                      : CompiledFunctionKind::Kernel;
      break;
    case NumbaDecorator::Vectorize:
      out_.kind = CompiledFunctionKind::Vectorize;
      break;
    default:
      out_.kind = CompiledFunctionKind::GuVectorize;
      break;
    }
    if (out_.kind == CompiledFunctionKind::Vectorize ||
        out_.kind == CompiledFunctionKind::GuVectorize) {
      if (out_.options.target.empty())
        out_.options.target = "cpu";
    }
    std::vector<const ast::Expr*> positional;
    if (call != nullptr)
      positional.assign(call->args.begin(), call->args.end());
    size_t maxPositional = match_.which == NumbaDecorator::GuVectorize ? 2 : 1;
    if (positional.size() > maxPositional) {
      diags_.report(DiagKind::DecoratorTooManyPositional, positional[maxPositional]->range,
                    {match_.spelling, std::to_string(maxPositional)});
      positional.resize(maxPositional);
    }
    for (const ast::Expr* arg : positional) {
      if (arg->is<ast::Starred>()) {
        diags_.report(DiagKind::DecoratorBadSignatureArgument, arg->range, {match_.spelling});
        return;
      }
    }
    const ast::Expr* layoutArg = nullptr;
    const ast::Expr* signaturesArg = positional.empty() ? nullptr : positional[0];
    if (match_.which == NumbaDecorator::GuVectorize) {
      if (positional.size() == 2) {
        layoutArg = positional[1];
      } else if (positional.size() == 1 && isStringValued(positional[0])) {
        // guvectorize("(n)->(n)"): a dynamic gufunc, layout only.
        layoutArg = positional[0];
        signaturesArg = nullptr;
      }
      if (layoutArg == nullptr)
        diags_.report(DiagKind::DecoratorMissingLayout, match_.decorator->range, {});
      else
        readLayout(layoutArg);
    }
    if (signaturesArg != nullptr)
      readSignatures(signaturesArg);
  }

private:
  // --- keywords ------------------------------------------------------------------------------

  void readKeywords(const ast::Call& call) {
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

  void readKeyword(const std::string& name, const ast::Expr* value) {
    DecoratorOptions& o = out_.options;
    if (name == "device")
      readBool(name, value, o.device);
    else if (name == "debug")
      readBool(name, value, o.debug, /*noneAllowed=*/true);
    else if (name == "opt")
      readBool(name, value, o.opt, /*noneAllowed=*/true);
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

  // Folds a keyword's value; reports a non-constant one. None when it did not fold.
  std::optional<ConstantValue> foldKeyword(const std::string& name, const ast::Expr* value) {
    FoldResult r = folder_.fold(value);
    if (r.status() == FoldResult::Status::NotConstant)
      diags_.report(DiagKind::DecoratorNotConstant, value->range, {name, match_.spelling});
    if (!r.isConstant())
      return std::nullopt;
    return r.value();
  }

  void wrongType(const std::string& name, const ast::Expr* value, const char* expected) {
    diags_.report(DiagKind::DecoratorKeywordType, value->range, {name, match_.spelling, expected});
  }

  void readBool(const std::string& name, const ast::Expr* value, std::optional<bool>& field,
                bool noneAllowed = false) {
    std::optional<ConstantValue> v = foldKeyword(name, value);
    if (!v)
      return;
    if (v->kind == Kind::Bool)
      field = v->boolValue;
    else if (!(noneAllowed && v->kind == Kind::None))
      wrongType(name, value, noneAllowed ? "`True`, `False` or `None`" : "`True` or `False`");
  }

  void readFastmath(const ast::Expr* value) {
    const std::vector<ast::Expr*>* elements = nullptr;
    if (const auto* set = value->as<ast::Set>())
      elements = &set->elts;
    else if (const auto* list = value->as<ast::List>())
      elements = &list->elts;
    else if (const auto* tuple = value->as<ast::Tuple>())
      elements = &tuple->elts;
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

  void readInline(const ast::Expr* value) {
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

  void readLink(const ast::Expr* value) {
    const std::vector<ast::Expr*>* elements = nullptr;
    if (const auto* list = value->as<ast::List>())
      elements = &list->elts;
    else if (const auto* tuple = value->as<ast::Tuple>())
      elements = &tuple->elts;
    if (elements == nullptr) {
      std::optional<ConstantValue> v = foldKeyword("link", value);
      if (v && v->kind == Kind::Tuple) {
        for (const ConstantValue& e : v->elements) {
          if (e.kind != Kind::Str) {
            wrongType("link", value, "a list of file names");
            return;
          }
          out_.options.link.push_back(e.strValue);
        }
      } else if (v) {
        wrongType("link", value, "a list of file names");
      }
      return;
    }
    for (const ast::Expr* e : *elements) {
      std::optional<ConstantValue> v = foldKeyword("link", e);
      if (v && v->kind == Kind::Str)
        out_.options.link.push_back(v->strValue);
      else if (v)
        wrongType("link", e, "a list of file names");
    }
  }

  void readMaxRegisters(const ast::Expr* value) {
    std::optional<ConstantValue> v = foldKeyword("max_registers", value);
    if (v && v->kind == Kind::Int && v->intValue > 0 && v->intValue <= 255)
      out_.options.maxRegisters = static_cast<int64_t>(v->intValue);
    else if (v)
      wrongType("max_registers", value, "an integer from 1 to 255");
  }

  void readLaunchBounds(const ast::Expr* value) {
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

  void readTarget(const ast::Expr* value) {
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

  void readIdentity(const ast::Expr* value) {
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

  void readWritableArgs(const ast::Expr* value) {
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

  // --- signatures and layout -----------------------------------------------------------------

  bool isStringValued(const ast::Expr* e) {
    if (isStr(e))
      return true;
    if (e->is<ast::Name>() || e->is<ast::Attribute>()) {
      DiagnosticEngine quiet;
      FoldResult r = ConstantFolder(symbols_, quiet).fold(e);
      return r.isConstant() && r.value().kind == Kind::Str;
    }
    return false;
  }

  void readLayout(const ast::Expr* arg) {
    std::string text;
    std::optional<StringLiteralLocation> where;
    if (const auto* c = arg->as<ast::Constant>(); c && c->valueKind == ast::ConstantKind::Str) {
      text = c->strValue;
      where.emplace(*c, diags_.file());
    } else {
      FoldResult r = folder_.fold(arg);
      if (!r.isConstant() || r.value().kind != Kind::Str) {
        if (r.status() != FoldResult::Status::Error)
          diags_.report(DiagKind::DecoratorKeywordType, arg->range,
                        {"layout", match_.spelling, "a string such as `\"(n)->(n)\"`"});
        return;
      }
      text = r.value().strValue;
      where.emplace(arg->range, text, nullptr);
    }
    GufuncLayoutError error;
    std::optional<GufuncLayout> layout = parseGufuncLayout(text, error);
    if (!layout) {
      diags_.report(DiagKind::GufuncLayoutSyntax, where->rangeOf(error.offset, 1),
                    {text, error.message});
      return;
    }
    out_.layout = std::move(layout);
    layoutText_ = text;
  }

  struct SignatureAt {
    FunctionSignature signature;
    SourceRange range;
  };

  void readSignatures(const ast::Expr* arg) {
    std::vector<SignatureAt> signatures;
    auto readOne = [&](const ast::Expr* e) {
      if (const auto* c = e->as<ast::Constant>(); c && c->valueKind == ast::ConstantKind::Str) {
        StringLiteralLocation where(*c, diags_.file());
        if (std::optional<FunctionSignature> s = parseSignature(c->strValue, where, diags_))
          signatures.push_back({*s, e->range});
        return;
      }
      if (std::optional<FunctionSignature> s = readSignatureExpression(e, symbols_)) {
        signatures.push_back({*s, e->range});
        return;
      }
      DiagnosticEngine quiet;
      FoldResult r = ConstantFolder(symbols_, quiet).fold(e);
      if (r.isConstant() && r.value().kind == Kind::Str) {
        StringLiteralLocation where(e->range, r.value().strValue, nullptr);
        if (std::optional<FunctionSignature> s = parseSignature(r.value().strValue, where, diags_))
          signatures.push_back({*s, e->range});
        return;
      }
      if (r.isConstant() && r.value().kind == Kind::Tuple) {
        for (const ConstantValue& v : r.value().elements) {
          if (v.kind != Kind::Str) {
            diags_.report(DiagKind::DecoratorBadSignatureArgument, e->range, {match_.spelling});
            return;
          }
          StringLiteralLocation where(e->range, v.strValue, nullptr);
          if (std::optional<FunctionSignature> s = parseSignature(v.strValue, where, diags_))
            signatures.push_back({*s, e->range});
        }
        return;
      }
      diags_.report(DiagKind::DecoratorBadSignatureArgument, e->range, {match_.spelling});
    };

    const std::vector<ast::Expr*>* elements = nullptr;
    if (const auto* list = arg->as<ast::List>())
      elements = &list->elts;
    else if (const auto* tuple = arg->as<ast::Tuple>();
             tuple && !readSignatureExpression(arg, symbols_))
      elements = &tuple->elts;
    if (elements != nullptr) {
      for (const ast::Expr* e : *elements)
        readOne(e);
    } else {
      readOne(arg);
    }
    out_.lazy = false;
    for (SignatureAt& s : signatures)
      if (checkSignature(s))
        out_.signatures.push_back(std::move(s.signature));
  }

  bool checkSignature(const SignatureAt& s) {
    const FunctionSignature& sig = s.signature;
    bool ok = true;
    switch (out_.kind) {
    case CompiledFunctionKind::Kernel:
      if (sig.returnType && !sig.returnType->isVoid()) {
        diags_.report(DiagKind::KernelReturnsValue, s.range, {});
        ok = false;
      }
      break;
    case CompiledFunctionKind::DeviceFunction:
      break;
    case CompiledFunctionKind::Vectorize:
      if (!sig.returnType || sig.returnType->isVoid()) {
        diags_.report(DiagKind::VectorizeNeedsReturnType, s.range, {});
        ok = false;
      }
      for (const NumbaType& p : sig.params) {
        if (!p.isScalar()) {
          diags_.report(DiagKind::VectorizeArrayArgument, s.range, {p.spelling()});
          ok = false;
          break;
        }
      }
      break;
    case CompiledFunctionKind::GuVectorize:
      if (sig.returnType && !sig.returnType->isVoid()) {
        diags_.report(DiagKind::GuvectorizeReturnsValue, s.range, {});
        ok = false;
      }
      if (out_.layout && ok) {
        const GufuncLayout& layout = *out_.layout;
        if (layout.operandCount() != sig.params.size()) {
          diags_.report(DiagKind::GufuncLayoutArity, s.range,
                        {layoutText_, std::to_string(layout.operandCount()),
                         std::to_string(sig.params.size())});
          ok = false;
          break;
        }
        for (size_t i = 0; i < sig.params.size(); ++i) {
          size_t dims = layout.operand(i).size();
          const NumbaType& p = sig.params[i];
          bool fits = p.isArray()
                          ? static_cast<size_t>(p.ndim()) == dims || (dims == 0 && p.ndim() == 1)
                          : dims == 0;
          if (!fits) {
            diags_.report(DiagKind::GufuncLayoutDims, s.range,
                          {std::to_string(i + 1), p.spelling(), std::to_string(dims)});
            ok = false;
          }
        }
      }
      break;
    }
    if (!def_.args.vararg) {
      size_t count = def_.args.posonlyargs.size() + def_.args.args.size();
      if (sig.params.size() != count) {
        diags_.report(
            DiagKind::SignatureArityMismatch, s.range,
            {sig.spelling(), std::to_string(sig.params.size()), def_.name, std::to_string(count)});
        ok = false;
      }
    }
    return ok;
  }

  const DecoratorMatch& match_;
  const ast::FunctionDef& def_;
  const ModuleSymbolTable& symbols_;
  DiagnosticEngine& diags_;
  ConstantFolder folder_;
  CompiledFunction& out_;
  std::string layoutText_;
};

} // namespace

DecoratorMatch matchNumbaDecorator(const ast::Expr* decorator, const ModuleSymbolTable& symbols) {
  DecoratorMatch match;
  match.decorator = decorator;
  const ast::Expr* callee = decorator;
  if (const auto* call = decorator->as<ast::Call>()) {
    match.call = call;
    callee = call->func;
  }
  std::optional<std::string> q = importedQualifiedName(callee, symbols);
  if (!q)
    return match;
  match.spelling = dottedName(callee);
  if (*q == "numba.cuda.jit")
    match.which = NumbaDecorator::CudaJit;
  else if (*q == "numba.vectorize" || *q == "numba.np.ufunc.vectorize")
    match.which = NumbaDecorator::Vectorize;
  else if (*q == "numba.guvectorize" || *q == "numba.np.ufunc.guvectorize")
    match.which = NumbaDecorator::GuVectorize;
  else if (std::optional<ApiEntity> e = lookupApi(*q); e && e->kind == ApiKind::Decorator)
    match.which = NumbaDecorator::CpuJit;
  return match;
}

DecoratorMatch findNumbaDecorator(const ast::FunctionDef& def, const ModuleSymbolTable& symbols,
                                  DiagnosticEngine* diags) {
  DecoratorMatch found;
  for (const ast::Expr* decorator : def.decorators) {
    DecoratorMatch match = matchNumbaDecorator(decorator, symbols);
    if (match.which == NumbaDecorator::None)
      continue;
    if (found.which == NumbaDecorator::None) {
      found = match;
    } else if (diags != nullptr) {
      diags->report(DiagKind::TwoNumbaDecorators, decorator->range, {def.name});
      break;
    }
  }
  return found;
}

void readDecorator(const DecoratorMatch& match, const ast::FunctionDef& def,
                   const ModuleSymbolTable& symbols, DiagnosticEngine& diags,
                   CompiledFunction& out) {
  DecoratorArgumentReader(match, def, symbols, diags, out).read();
}

} // namespace pyk::sema
