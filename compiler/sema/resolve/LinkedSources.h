// LinkedSources: finds and reads the files numba's foreign-function interface links with a
// kernel: `cuda.declare_device(name, sig, link=...)` and `@cuda.jit(link=[...])`. A relative
// name is looked for beside the module that names it, then in the working directory (numba opens
// it from there). pyk compiles CUDA C++ sources (.cu) with the kernel (NVRTC on CUDA, the host
// compiler on the CPU backend); PTX, CUBIN, fatbins, objects, archives and LTO-IR are refused
// with the reason.
#pragma once

#include <optional>
#include <string>

#include "base/LinkedSource.h"
#include "diag/DiagnosticEngine.h"
#include "sema/fold/ConstantValue.h"
#include "sema/resolve/UserModules.h"

namespace pyk::sema {

struct ResolvedModule;

// The file `written` names, for the module at `modulePath` ("" for a module given as text):
// taken from `embedded` when a module built ahead of time carries it (an entry with no module
// name and that path), else read; nullopt with `why` set when it is not a .cu file or cannot be
// read.
std::optional<types::LinkedSource>
readLinkedSource(const std::string& written, const std::string& modulePath, std::string& why,
                 const std::vector<ImportSearch::Embedded>* embedded = nullptr);

// Each file `written` names, read as readLinkedSource reads it; one that cannot be is reported
// at `at` (LinkedSourceUnusable), `asker` saying whose link= named it, and left out.
std::vector<types::LinkedSource>
readLinkedSources(const std::vector<std::string>& written, const std::string& modulePath,
                  const std::vector<ImportSearch::Embedded>* embedded, DiagnosticEngine& diags,
                  SourceRange at, const std::string& asker);
// A link='s code: its cuda.CUSource objects (`inMemory`), then the files `written` names, read.
std::vector<types::LinkedSource>
readLinkedSources(std::vector<types::LinkedSource> inMemory,
                  const std::vector<std::string>& written, const std::string& modulePath,
                  const std::vector<ImportSearch::Embedded>* embedded, DiagnosticEngine& diags,
                  SourceRange at, const std::string& asker);

// `value` itself, or for `cuda.declare_device(..., link=...)` the declaration with the files its
// link= names found and read (after its cuda.CUSource objects), as readLinkedSources reads them.
ConstantValue withLinkedFiles(ConstantValue value, const std::string& modulePath,
                              const std::vector<ImportSearch::Embedded>* embedded,
                              DiagnosticEngine& diags, SourceRange at);

// Every CUDA C++ file `resolved`'s kernels link (declare_device's and the decorators' link=), as
// the entries `pykc build` embeds beside the module's text, so that loading it reads no file.
std::vector<ImportSearch::Embedded> embeddedLinkedSources(const ResolvedModule& resolved);

} // namespace pyk::sema
