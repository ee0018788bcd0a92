// GufuncLayout: a `guvectorize` layout string such as `(m,n),(n,p)->(m,p)`: the core dimensions
// of each input and output operand.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pyk::types {

struct GufuncLayout {
  std::vector<std::vector<std::string>> inputs;  // one list of dimension names per input
  std::vector<std::vector<std::string>> outputs; // the same per output

  size_t operandCount() const { return inputs.size() + outputs.size(); }
  // The dimensions of operand `i`, inputs first.
  const std::vector<std::string>& operand(size_t i) const {
    return i < inputs.size() ? inputs[i] : outputs[i - inputs.size()];
  }
  // Normalised spelling: `(m,n),(n,p)->(m,p)`.
  std::string spelling() const;
};

struct GufuncLayoutError {
  std::string message; // completes "invalid `guvectorize` layout `...`: <message>"
  size_t offset = 0;   // where in the text
};

// Parses numba's layout syntax: operands `(d, ...)` separated by commas, `->`, then the outputs;
// a dimension is a name or an integer. Whitespace is allowed between tokens.
std::optional<GufuncLayout> parseGufuncLayout(std::string_view text, GufuncLayoutError& error);

} // namespace pyk::types

namespace pyk::sema {
using namespace pyk::types; // typing's own vocabulary (base/NumbaType.h)
} // namespace pyk::sema
