// NpyHeader: the front of a .npy file (magic, version, header length, the header dictionary),
// parsed from and formatted to bytes. Parse errors are pyk::Error (ErrorKind::File) "NAME: ...".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pyk/dtype.hpp"
#include "pyk/record.hpp"

namespace pyk::npy {

// "\x93NUMPY", then the major and minor version bytes, then the header length: 2 bytes
// little-endian in version 1.0, 4 bytes in 2.0 and 3.0.
inline constexpr std::size_t kMagicLength = 6;
// The most bytes parseNpyPreamble needs to see.
inline constexpr std::size_t kLongestPreamble = kMagicLength + 2 + 4;
// A header dictionary longer than this is refused rather than read (pyk's own headers, even with
// 32 dimensions, stay under 1 KiB).
inline constexpr std::size_t kMaxHeaderLength = 1 << 20;

struct NpyPreamble {
  int majorVersion = 1;
  std::size_t headerOffset = 0; // where the header dictionary starts: 10 (1.0) or 12 (2.0, 3.0)
  std::size_t headerLength = 0; // bytes of the header dictionary, padding and newline included
};

// Reads the preamble from the first bytes of a file of `fileSize` bytes (`start` holds up to
// kLongestPreamble of them) and checks that the header it announces fits in the file.
NpyPreamble parseNpyPreamble(std::span<const std::byte> start, std::uint64_t fileSize,
                             std::string_view name);

struct NpyHeader {
  Dtype dtype = Dtype::Float64;
  std::shared_ptr<const RecordDtype> record; // Dtype::Record: the fields (aligned False, as numpy)
  std::int64_t chars = 0;                    // Dtype::Bytes, Dtype::Unicode: characters per item
  bool swapBytes = false;                    // the data's byte order is not the machine's
  bool fortranOrder = false;                 // the data is in Fortran (column-major) order
  std::vector<std::int64_t> shape;
  std::uint64_t dataBytes = 0; // element count × itemsize, checked not to overflow
};

// Parses the header dictionary, e.g. "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }".
NpyHeader parseNpyHeaderDictionary(std::string_view dictionary, std::string_view name);

// The bytes np.save writes before the data of a C-order, little-endian array of this dtype and
// shape: magic, version (1.0, or 2.0 when the header needs it), length, padded dictionary.
// `record` describes a Dtype::Record (null otherwise), `chars` a Bytes or Unicode item.
std::vector<std::byte> formatNpyHeader(Dtype dtype, const RecordDtype* record, std::int64_t chars,
                                       std::span<const std::int64_t> shape);

// numpy's descriptor of a structured dtype: its fields in offset order, gaps as ('', '|Vn');
// nested records as nested lists, sub-arrays with their shape (RecordDescr.cpp).
std::string recordDescr(const RecordDtype& record);
// The structured dtype a descriptor list describes (`[('a', '<f8'), ('d', '|u1', (5,)), ...]`);
// pyk::Error (File) "NAME: ..." for what pyk cannot hold.
std::shared_ptr<const RecordDtype> parseRecordDescr(std::string_view text, std::string_view name);

// "(3, 4)", "(3,)" or "()": a shape as Python writes the tuple.
std::string shapeText(std::span<const std::int64_t> shape);

} // namespace pyk::npy
