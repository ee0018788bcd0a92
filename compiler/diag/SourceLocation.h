// SourceLocation: positions and ranges in a source file (1-based line, 1-based column in code
// points).
#pragma once

#include <cstdint>

namespace pyk {

struct SourceLoc {
  uint32_t line = 0;   // 1-based; 0 means "no location"
  uint32_t column = 0; // 1-based, counted in Unicode code points

  bool valid() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
  friend auto operator<=>(const SourceLoc&, const SourceLoc&) = default;
};

// A half-open range [begin, end). An empty range (begin == end) marks a single point.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e) {}
  explicit SourceRange(SourceLoc point) : begin(point), end(point) {}

  bool valid() const { return begin.valid(); }
  // The smallest range covering both.
  static SourceRange cover(const SourceRange& a, const SourceRange& b) {
    if (!a.valid())
      return b;
    if (!b.valid())
      return a;
    return {a.begin < b.begin ? a.begin : b.begin, a.end < b.end ? b.end : a.end};
  }
};

} // namespace pyk
