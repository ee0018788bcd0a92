// DtypeDescriptor: numpy's dtype descriptors as .npy headers spell them ('<f4', '|b1'), and the
// text helpers the header's parsers share (their errors, quoting, Python's whitespace).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "pyk/dtype.hpp"

namespace pyk::npy {

// Throws pyk::Error (ErrorKind::File) "NAME: what".
[[noreturn]] void fail(std::string_view name, const std::string& what);
// Header text as a message quotes it: printable ASCII kept, other bytes as \xNN, long text cut.
std::string excerpt(std::string_view text, std::size_t limit = 120);
bool isPythonSpace(char c);

// numpy's type code of a scalar dtype without the byte order: "b1", "i4", "f2", "c16".
std::string typeCode(Dtype dtype);
// The little-endian descriptor np.save writes for a scalar dtype: '<f4', '|b1'.
std::string scalarDescr(Dtype dtype);
// A dtype string such as '<f4' or '|b1': the dtype and whether its bytes need swapping. '|', '='
// and no order character mean native order.
std::optional<std::pair<Dtype, bool>> dtypeOfDescriptor(std::string_view descriptor);

} // namespace pyk::npy
