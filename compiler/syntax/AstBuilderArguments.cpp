// AstBuilderArguments: AstBuilder's parameter lists (of `def` and `lambda`) and call argument
// lists, with Python's checks on their order.
#include "syntax/AstBuilder.h"

#include <set>

namespace pyk::syntax {

using namespace pyk::ast;

// ---- parameters ---------------------------------------------------------------------------------

void AstBuilder::typedArguments(P::TypedargslistContext* list, Arguments& out) {
  std::vector<Parameter> params;
  for (P::TypedargContext* arg : list->typedarg()) {
    Parameter p{Parameter::Plain, "", range(arg), nullptr, nullptr};
    P::TfpdefContext* def = nullptr;
    if (auto* plain = dynamic_cast<P::PlainParamContext*>(arg)) {
      def = plain->tfpdef();
      if (plain->test())
        p.defaultValue = test(plain->test());
    } else if (auto* star = dynamic_cast<P::StarParamContext*>(arg)) {
      p.kind = Parameter::Star;
      def = star->tfpdef();
    } else if (auto* dstar = dynamic_cast<P::DoubleStarParamContext*>(arg)) {
      p.kind = Parameter::DoubleStar;
      def = dstar->tfpdef();
    } else {
      p.kind = Parameter::Slash;
    }
    if (def != nullptr) {
      p.name = nameText(def->name());
      p.range = range(def->name());
      if (def->test())
        p.annotation = test(def->test());
    }
    params.push_back(p);
  }
  arguments(std::move(params), out, range(list));
}

void AstBuilder::lambdaArguments(P::VarargslistContext* list, Arguments& out) {
  std::vector<Parameter> params;
  for (P::VarargContext* arg : list->vararg()) {
    Parameter p{Parameter::Plain, "", range(arg), nullptr, nullptr};
    P::NameContext* name = nullptr;
    if (auto* plain = dynamic_cast<P::PlainLambdaParamContext*>(arg)) {
      name = plain->name();
      if (plain->test())
        p.defaultValue = test(plain->test());
    } else if (auto* star = dynamic_cast<P::StarLambdaParamContext*>(arg)) {
      p.kind = Parameter::Star;
      name = star->name();
    } else if (auto* dstar = dynamic_cast<P::DoubleStarLambdaParamContext*>(arg)) {
      p.kind = Parameter::DoubleStar;
      name = dstar->name();
    } else {
      p.kind = Parameter::Slash;
    }
    if (name != nullptr) {
      p.name = nameText(name);
      p.range = range(name);
    }
    params.push_back(p);
  }
  arguments(std::move(params), out, range(list));
}

void AstBuilder::arguments(std::vector<Parameter> params, Arguments& out, SourceRange where) {
  bool seenSlash = false, seenStar = false, seenKwarg = false, seenDefault = false;
  bool bareStar = false;
  SourceRange bareStarRange;
  std::set<std::string> names;
  auto error = [&](SourceRange r, const std::string& message) {
    diags_.report(DiagKind::InvalidParameters, r, {message});
  };
  for (Parameter& p : params) {
    if (seenKwarg) {
      error(p.range, "arguments cannot follow var-keyword argument");
      return;
    }
    if (!p.name.empty() && !names.insert(p.name).second)
      error(p.range, "duplicate argument `" + p.name + "` in function definition");
    switch (p.kind) {
    case Parameter::Slash:
      if (seenSlash)
        error(p.range, "`/` may appear only once");
      else if (seenStar)
        error(p.range, "`/` must be ahead of `*`");
      else if (out.args.empty())
        error(p.range, "at least one argument must precede `/`");
      else
        out.posonlyargs = std::move(out.args), out.args.clear();
      seenSlash = true;
      break;
    case Parameter::Plain: {
      Arg arg{p.name, p.annotation, p.range};
      if (seenStar) {
        out.kwonlyargs.push_back(arg);
        out.kwDefaults.push_back(p.defaultValue);
        bareStar = false;
      } else {
        if (p.defaultValue != nullptr) {
          seenDefault = true;
          out.defaults.push_back(p.defaultValue);
        } else if (seenDefault) {
          error(p.range, "non-default argument follows default argument");
        }
        out.args.push_back(arg);
      }
      break;
    }
    case Parameter::Star:
      if (seenStar) {
        error(p.range, "`*` argument may appear only once");
        break;
      }
      seenStar = true;
      if (p.name.empty()) {
        bareStar = true;
        bareStarRange = p.range;
      } else {
        out.vararg = std::make_unique<Arg>(Arg{p.name, p.annotation, p.range});
      }
      break;
    case Parameter::DoubleStar:
      seenKwarg = true;
      out.kwarg = std::make_unique<Arg>(Arg{p.name, p.annotation, p.range});
      break;
    }
  }
  if (bareStar)
    error(bareStarRange.valid() ? bareStarRange : where, "named arguments must follow bare `*`");
}

// ---- call arguments -----------------------------------------------------------------------------

void AstBuilder::callArguments(P::ArglistContext* list, std::vector<Expr*>& args,
                               std::vector<Keyword>& keywords) {
  bool seenKeyword = false, seenDoubleStar = false;
  std::vector<P::ArgumentContext*> items = list->argument();
  auto error = [&](SourceRange r, const char* message) {
    diags_.report(DiagKind::InvalidArguments, r, {message});
  };
  for (P::ArgumentContext* a : items) {
    SourceRange r = range(a);
    if (auto* gen = dynamic_cast<P::GeneratorArgumentContext*>(a)) {
      if (items.size() > 1 || !list->COMMA().empty())
        error(r, "generator expression must be parenthesized");
      auto* node = make<GeneratorExp>(r);
      node->elt = test(gen->test());
      node->generators = comprehensions(gen->comp_for());
      args.push_back(node);
    } else if (auto* named = dynamic_cast<P::NamedArgumentContext*>(a)) {
      auto* node = make<NamedExpr>(r);
      node->target = test(named->test(0));
      node->value = test(named->test(1));
      if (auto* n = node->target->as<Name>())
        n->ctx = ExprContext::Store;
      else
        diags_.report(DiagKind::InvalidTarget, node->target->range,
                      {"use assignment expressions with", describe(node->target)});
      if (seenKeyword || seenDoubleStar)
        error(r, "positional argument follows keyword argument");
      args.push_back(node);
    } else if (auto* kw = dynamic_cast<P::KeywordArgumentContext*>(a)) {
      Expr* key = test(kw->test(0));
      Keyword k;
      k.value = test(kw->test(1));
      k.range = r;
      if (auto* n = key->as<Name>()) {
        k.arg = n->id;
        for (const Keyword& other : keywords)
          if (other.arg == k.arg)
            diags_.report(DiagKind::InvalidArguments, r,
                          {"keyword argument repeated: `" + k.arg + "`"});
      } else {
        error(key->range, "expression cannot contain assignment; did you mean `==`?");
      }
      seenKeyword = true;
      keywords.push_back(k);
    } else if (auto* dstar = dynamic_cast<P::DoubleStarArgumentContext*>(a)) {
      Keyword k;
      k.value = test(dstar->test());
      k.range = r;
      seenDoubleStar = true;
      keywords.push_back(k);
    } else if (auto* star = dynamic_cast<P::StarArgumentContext*>(a)) {
      if (seenDoubleStar)
        error(r, "iterable argument unpacking follows keyword argument unpacking");
      auto* node = make<Starred>(r);
      node->value = test(star->test());
      args.push_back(node);
    } else if (auto* pos = dynamic_cast<P::PositionalArgumentContext*>(a)) {
      if (seenDoubleStar)
        error(r, "positional argument follows keyword argument unpacking");
      else if (seenKeyword)
        error(r, "positional argument follows keyword argument");
      args.push_back(test(pos->test()));
    }
  }
}

} // namespace pyk::syntax
