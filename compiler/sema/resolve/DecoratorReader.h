// DecoratorReader: recognises numba's decorators on a function (`@cuda.jit`, `@vectorize`,
// `@guvectorize`, through any import alias), classifies the function and checks the arguments.
#pragma once

#include <string>

#include "diag/DiagnosticEngine.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/resolve/CompiledFunction.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

struct DecoratorMatch {
  NumbaDecorator which = NumbaDecorator::None;
  const ast::Expr* decorator = nullptr;
  const ast::Call* call = nullptr; // the decorator's call, when it has arguments or `()`
  std::string spelling;            // the callee as written: `cuda.jit`, `nb.vectorize`
};

// Which numba decorator `decorator` is, seen through the module's imports.
DecoratorMatch matchNumbaDecorator(const ast::Expr* decorator, const ModuleSymbolTable& symbols);

// `k = cuda.jit(f)`, `k = cuda.jit("void(float32[:])")(f)`, `g = cuda.jit(device=True)(f)`,
// `u = vectorize([...], target="cuda")(f)`: a numba decorator called on a plain function `f` the
// module (`body`) defined before `statement`: f's definition, `match` the decorator; null for
// any other statement. numba compiles `k` as `f` decorated so would be; `f` stays a Python
// function.
const ast::FunctionDef* decoratedByCall(const ast::Stmt& statement,
                                        const std::vector<ast::Stmt*>& body,
                                        const ModuleSymbolTable& symbols, DecoratorMatch& match);

// The first numba decorator of `def` (None when there is none); a second one is reported.
DecoratorMatch findNumbaDecorator(const ast::FunctionDef& def, const ModuleSymbolTable& symbols,
                                  DiagnosticEngine* diags);

// Reads a CudaJit, Vectorize or GuVectorize decorator into `out`: kind, options, signatures
// (checked against the kind and the function's parameters) and the guvectorize layout. Every
// problem is reported; `out` is filled as far as it could be read.
void readDecorator(const DecoratorMatch& match, const ast::FunctionDef& def,
                   const ModuleSymbolTable& symbols, DiagnosticEngine& diags,
                   CompiledFunction& out);

} // namespace pyk::sema
