// FuzzFrontEnd: libFuzzer target for the lexer, parser, AST builder, resolution and the kernel
// language checks (`pykc check` without typing): any bytes must end in diagnostics or a module,
// never a crash, a hang or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "sema/resolve/FrontEnd.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pyk::SourceFile file("fuzz.pyk", std::string(reinterpret_cast<const char*>(data), size));
  pyk::DiagnosticEngine diags(&file);
  (void)pyk::sema::runFrontEnd(file, diags);
  return 0;
}
