// SpellingSuggestion: the "did you mean" candidate closest to a misspelt name (edit distance).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pyk::sema {

// Levenshtein distance with adjacent transpositions counted as one edit.
size_t editDistance(std::string_view a, std::string_view b);

// The candidate nearest to `name`, if it is close enough to be a plausible typo: at most one edit
// for names of up to 4 characters, else at most a third of the name's length. Ties go to the
// earliest candidate; a candidate equal to `name` is never suggested.
std::optional<std::string> closestSpelling(std::string_view name,
                                           const std::vector<std::string>& candidates);

} // namespace pyk::sema
