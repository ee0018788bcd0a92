// FuzzSignature: libFuzzer target for numba signature strings (`void(float32[:, ::1], int64)`,
// records as numba's repr): any text parses or is reported, and what parses spells back to a
// text that parses to the same signature.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/SignatureParser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pyk::DiagnosticEngine diags;
  std::optional<pyk::types::FunctionSignature> parsed = pyk::sema::parseSignature(
      text, pyk::sema::StringLiteralLocation(pyk::SourceRange(), text, nullptr), diags);
  if (!parsed)
    return 0;
  const std::string spelling = parsed->spelling();
  pyk::DiagnosticEngine again;
  std::optional<pyk::types::FunctionSignature> reparsed = pyk::sema::parseSignature(
      spelling, pyk::sema::StringLiteralLocation(pyk::SourceRange(), spelling, nullptr), again);
  if (!reparsed || !(*reparsed == *parsed))
    std::abort(); // the spelling does not read back
  return 0;
}
