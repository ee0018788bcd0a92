// NameBinding: what a name used inside a compiled function refers to, and the per-function table
// of those bindings (FunctionScope).
#include "sema/NameBinding.h"

namespace pyk::sema {

const char* nameOf(NameBinding::Kind kind) {
  switch (kind) {
  case NameBinding::Kind::Parameter:
    return "parameter";
  case NameBinding::Kind::Local:
    return "local";
  case NameBinding::Kind::ModuleConstant:
    return "constant";
  case NameBinding::Kind::CompiledFunction:
    return "device function";
  case NameBinding::Kind::Api:
    return "api";
  case NameBinding::Kind::Builtin:
    return "builtin";
  }
  return "?";
}

} // namespace pyk::sema
