// ImportResolver: the names an import statement binds and the qualified names they stand for
// (`import numpy as np` → np = numpy; `from numba import cuda` → cuda = numba.cuda).
#pragma once

#include <string>
#include <vector>

#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// The bindings of an `import` or `from ... import` statement, in order, with canonical qualified
// names. `import a.b` binds `a` to `a`; `import a.b as c` binds `c` to `a.b`; `from m import *`
// binds every member the catalog knows for `m` (nothing for other modules); relative imports bind
// names to `.pkg.name`-style qualified names no catalog entry matches. Any other statement binds
// nothing.
std::vector<ImportBinding> importBindings(const ast::Stmt& statement);

// `name = cffi.FFI()` (`value`): numba types the instance as `ffi`, whose `from_buffer` kernels
// call; bound as an import of the name `cffi.ffi`, so that `name.from_buffer` is that intrinsic.
// Whether `value` is such a call (and `name` is bound).
bool bindFfiInstance(const std::string& name, const ast::Expr* value, SourceRange at,
                     ModuleSymbolTable& symbols);

} // namespace pyk::sema
