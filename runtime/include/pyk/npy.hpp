// npy: host arrays read from and written to numpy's .npy files.
//
// Reading takes format versions 1.0, 2.0 and 3.0, any byte order ('<', '>', '|', '='; converted
// to native), fortran_order True (transposed into C order) or False, 0-d and empty arrays and up to
// 32 dimensions, for the dtypes of pyk/dtype.hpp and structured dtypes of them (numpy's list
// descriptor, `[('s0', '<u8'), ('s1', '<u8')]`, with unnamed '|Vn' padding; little-endian or
// one-byte fields). Anything else (object, string, unicode, datetime or void dtypes, nested or
// sub-array fields, big-endian fields of a record, a bad magic, a malformed header, a shape whose
// byte count overflows, data shorter than the shape needs) is a pyk::Error of kind File whose
// message starts with the path and says what is wrong. The data size is checked against the file's
// size before anything is allocated. Bytes after the data are ignored, as numpy's np.load ignores
// them.
//
// Writing produces what np.save writes for a C-contiguous little-endian array, byte for byte (a
// record's descriptor lists its fields in offset order, gaps as '|Vn' padding, as numpy's
// dtype.descr does): version 1.0 (2.0 if the header outgrows 1.0's 16-bit length), little-endian
// descriptors, C order, the header padded with spaces to a multiple of 64 bytes. The file is
// written under a temporary name in the same folder and renamed into place, so a failed write never
// leaves a half file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pyk/dtype.hpp"
#include "pyk/record.hpp"

namespace pyk {

// The most dimensions a .npy file may have for pyk (numpy 1.x's NPY_MAXDIMS).
inline constexpr std::size_t kMaxNpyDimensions = 32;

// An array in host memory: its elements in C order and native byte order.
struct HostArray {
  Dtype dtype = Dtype::Float64;
  std::vector<std::int64_t> shape; // empty for a 0-d array (one element)
  std::vector<std::byte> bytes;    // element_count() * itemsize() bytes
  // Dtype::Record: the fields and item size (else null).
  std::shared_ptr<const RecordDtype> record;
  // Dtype::Bytes, Dtype::Unicode: characters per item (numpy's 'S12', 'U12'); else 0.
  std::int64_t chars = 0;

  // Bytes per element: the record's size, the characters', else dtype_itemsize(dtype).
  std::size_t itemsize() const;
  // The product of the shape (1 for a 0-d array, 0 when any extent is 0); -1 when an extent is
  // negative or the product does not fit in 64 bits.
  std::int64_t element_count() const;
  // Whether bytes.size() is what dtype and shape need, every extent is non-negative, a record is
  // given exactly for Dtype::Record, and characters for Bytes and Unicode.
  bool is_consistent() const;

  // Same dtype (records compared by value), shape and bytes.
  bool operator==(const HostArray& other) const;
};

// Reads a .npy file. Throws pyk::Error (ErrorKind::File) "PATH: what is wrong".
HostArray read_npy(const std::filesystem::path& path);

// Writes `array` to a .npy file, replacing any file there. Throws pyk::Error: ErrorKind::
// InvalidArgument when the array is not consistent or has more than kMaxNpyDimensions dimensions,
// ErrorKind::File when the file cannot be written (then no file, old or half, is left changed).
void write_npy(const std::filesystem::path& path, const HostArray& array);

// The in-memory forms of the two: the contents of a .npy file (`name` starts error messages,
// as the path does for read_npy), and the bytes write_npy writes.
HostArray decode_npy(std::span<const std::byte> contents, std::string_view name);
std::vector<std::byte> encode_npy(const HostArray& array);

} // namespace pyk
