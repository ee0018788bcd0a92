// DecoratorArgumentReader: reads the arguments of one numba decorator (`@cuda.jit(...)`,
// `@vectorize(...)`, `@guvectorize(...)`) into a CompiledFunction: the function's kind, the
// keyword options, the signatures and the gufunc layout, each checked and every problem reported.
// Internal to the decorator reader's files; others call readDecorator (DecoratorReader.h).
#pragma once

#include <optional>
#include <string>

#include "diag/DiagnosticEngine.h"
#include "sema/fold/ConstantFolder.h"
#include "sema/resolve/CompiledFunction.h"
#include "sema/resolve/DecoratorReader.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

class DecoratorArgumentReader {
public:
  DecoratorArgumentReader(const DecoratorMatch& match, const ast::FunctionDef& def,
                          const ModuleSymbolTable& symbols, DiagnosticEngine& diags,
                          CompiledFunction& out)
      : match_(match), def_(def), symbols_(symbols), diags_(diags), folder_(symbols, diags),
        out_(out) {}

  // The kind, then the keywords, the layout and the signatures (DecoratorReader.cpp).
  void read();

private:
  // --- keywords (DecoratorKeywords.cpp) ------------------------------------------------------

  void readKeywords(const ast::Call& call);
  void readKeyword(const std::string& name, const ast::Expr* value);
  // Folds a keyword's value; reports a non-constant one. None when it did not fold.
  std::optional<ConstantValue> foldKeyword(const std::string& name, const ast::Expr* value);
  void wrongType(const std::string& name, const ast::Expr* value, const char* expected);
  void readBool(const std::string& name, const ast::Expr* value, std::optional<bool>& field,
                bool noneAllowed = false);
  void readFastmath(const ast::Expr* value);
  void readInline(const ast::Expr* value);
  void readLink(const ast::Expr* value);
  void readOpt(const ast::Expr* value);
  void readMaxRegisters(const ast::Expr* value);
  void readLaunchBounds(const ast::Expr* value);
  void readTarget(const ast::Expr* value);
  void readIdentity(const ast::Expr* value);
  void readWritableArgs(const ast::Expr* value);

  // --- signatures and layout (DecoratorSignatures.cpp) ---------------------------------------

  bool isStringValued(const ast::Expr* e);
  void readLayout(const ast::Expr* arg);

  struct SignatureAt {
    FunctionSignature signature;
    SourceRange range;
  };

  void readSignatures(const ast::Expr* arg);
  bool checkSignature(const SignatureAt& s);

  const DecoratorMatch& match_;
  const ast::FunctionDef& def_;
  const ModuleSymbolTable& symbols_;
  DiagnosticEngine& diags_;
  ConstantFolder folder_;
  CompiledFunction& out_;
  std::string layoutText_;
};

} // namespace pyk::sema
