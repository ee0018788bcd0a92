// DecoratorSignatures: the signatures of a numba decorator (strings, numba type expressions or
// constants holding them) and a guvectorize layout, read and checked against the function's kind
// and parameters.
#include "sema/resolve/DecoratorArgumentReader.h"

#include <functional>

#include "sema/resolve/SignatureParser.h"
#include "sema/resolve/TypeExpressionReader.h"

namespace pyk::sema {

namespace {

using Kind = ConstantValue::Kind;

bool isStr(const ast::Expr* e) {
  const auto* c = e->as<ast::Constant>();
  return c != nullptr && c->valueKind == ast::ConstantKind::Str;
}

} // namespace

bool DecoratorArgumentReader::isStringValued(const ast::Expr* e) {
  if (isStr(e))
    return true;
  if (e->is<ast::Name>() || e->is<ast::Attribute>()) {
    DiagnosticEngine quiet;
    FoldResult r = ConstantFolder(symbols_, quiet).fold(e);
    return r.isConstant() && r.value().kind == Kind::Str;
  }
  return false;
}

void DecoratorArgumentReader::readLayout(const ast::Expr* arg) {
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

void DecoratorArgumentReader::readSignatures(const ast::Expr* arg) {
  // A signature kept in a variable (`sig = (float32[:], int32)`; `@cuda.jit(sig)`, `[sig, ...]`)
  // is read from the expression assigned to it, as numba reads the value.
  int hops = 0;
  while (const auto* name = arg->as<ast::Name>()) {
    const ast::Expr* assigned = symbols_.assignedExpression(name->id);
    if (assigned == nullptr || ++hops > 8)
      break;
    arg = assigned;
  }
  std::vector<SignatureAt> signatures;
  std::function<void(const ast::Expr*, int)> readOne = [&](const ast::Expr* e, int depth) {
    if (const auto* name = e->as<ast::Name>(); name && depth < 8)
      if (const ast::Expr* assigned = symbols_.assignedExpression(name->id)) {
        readOne(assigned, depth + 1);
        return;
      }
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
      readOne(e, 0);
  } else {
    readOne(arg, 0);
  }
  out_.lazy = false;
  for (SignatureAt& s : signatures)
    if (checkSignature(s))
      out_.signatures.push_back(std::move(s.signature));
}

bool DecoratorArgumentReader::checkSignature(const SignatureAt& s) {
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

} // namespace pyk::sema
