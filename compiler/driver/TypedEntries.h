// TypedEntries: the functions `pykc emit` and `pykc report` compile: each selected function
// (`--kernel`, or every one) typed for each of its signatures (or `--sig`), and the request that
// takes one of them further through the jit library.
#pragma once

#include <vector>

#include "diag/DiagnosticEngine.h"
#include "driver/CommandLine.h"
#include "jit/CompileSpecialization.h"
#include "sema/resolve/FrontEnd.h"

namespace pyk::driver {

// One function typed for one signature.
struct Entry {
  const sema::CompiledFunction* function;
  types::FunctionSignature signature;
};

// A request for `entry` in `set`, up to `stage`.
jit::SpecializationRequest requestFor(const sema::ResolvedModule& resolved, const SourceFile& file,
                                      const Entry& entry, jit::Target target, jit::Stage stage,
                                      sema::SpecializationSet& set, DiagnosticEngine& diags,
                                      const jit::JitSettings& settings = {});

// Every selected function typed for each of its signatures, or for `options.sig`, into `set`
// (for `target`); returns the ones that typed. Every signature is typed before anything is
// emitted, so all type errors are reported first; errors go to `diags`.
std::vector<Entry> typeSelectedFunctions(const sema::ResolvedModule& resolved,
                                         const SourceFile& file, const Options& options,
                                         const jit::Target& target, sema::SpecializationSet& set,
                                         DiagnosticEngine& diags);

} // namespace pyk::driver
