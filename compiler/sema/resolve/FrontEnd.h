// FrontEnd: a source file through the front end, parsed then resolved, on a thread with a stack
// deep enough for nested input. The one place the front end starts: the compiler service's
// modules (jit/CompilerService.h: the runtime's pyk::load), pykc's commands, `pykc build`, the
// stdlib's own modules and the fuzzers all come through here.
#pragma once

#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "sema/resolve/ResolvedModule.h"
#include "syntax/Parser.h"

namespace pyk::sema {

struct FrontEndResult {
  ParseResult parsed;      // owns the syntax tree; its module is null after a syntax error
  ResolvedModule resolved; // empty unless resolution ran
};

// Where runFrontEnd stops: after parsing (pykc --emit=ast) or after resolution.
enum class FrontEndStop { Parsed, Resolved };

class ModuleImporter;
struct ImportSearch;

// Parses `file` and, when it parsed and `stop` asks for it, resolves it. Every problem is
// reported to `diags`; later phases may use the result only when !diags.hasErrors(). `file` must
// outlive the result (the syntax tree and the diagnostics point into it). The modules of the
// user's it imports are looked for beside it, then in `search`'s directories (resolve/UserModules).
FrontEndResult runFrontEnd(const SourceFile& file, DiagnosticEngine& diags,
                           FrontEndStop stop = FrontEndStop::Resolved,
                           const ImportSearch* search = nullptr);
// The same with the importer of the file that imports this one (resolve/UserModules).
FrontEndResult runFrontEnd(const SourceFile& file, DiagnosticEngine& diags, FrontEndStop stop,
                           ModuleImporter* importer);

} // namespace pyk::sema
