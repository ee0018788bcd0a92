// SpellingSuggestion: the "did you mean" candidate closest to a misspelt name (edit distance).
#include "sema/resolve/SpellingSuggestion.h"

#include <algorithm>

namespace pyk::sema {

size_t editDistance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance, three rows.
  std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closestSpelling(std::string_view name,
                                           const std::vector<std::string>& candidates) {
  size_t limit = name.size() <= 4 ? 1 : std::max<size_t>(1, name.size() / 3);
  std::optional<std::string> best;
  size_t bestDistance = limit + 1;
  for (const std::string& candidate : candidates) {
    if (candidate == name)
      continue;
    size_t distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

} // namespace pyk::sema
