// NpyWriter: HostArrays to .npy files (or their bytes), exactly as np.save writes them.
#include <algorithm>
#include <bit>

#include "base/FileReplacement.h"
#include "npy/NpyHeader.h"
#include "pyk/error.hpp"
#include "pyk/npy.hpp"

namespace pyk {

namespace {

void checkWritable(const HostArray& array, std::string_view name) {
  std::string prefix = name.empty() ? std::string() : std::string(name) + ": ";
  if (array.shape.size() > kMaxNpyDimensions)
    throw Error(ErrorKind::InvalidArgument,
                prefix + "cannot write an array of " + std::to_string(array.shape.size()) +
                    " dimensions (pyk writes at most " + std::to_string(kMaxNpyDimensions) + ")");
  if (!array.is_consistent())
    throw Error(ErrorKind::InvalidArgument,
                prefix + "cannot write an inconsistent array: shape " +
                    npy::shapeText(array.shape) + " of " + std::string(dtype_name(array.dtype)) +
                    " with " + std::to_string(array.bytes.size()) + " bytes of data");
}

// Every scalar of the record at `at` byte-swapped in place: each field, each item of a sub-array,
// nested records field by field, unicode characters one by one.
void swapRecord(const RecordDtype& record, std::vector<std::byte>& data, std::size_t at) {
  for (const RecordField& f : record.fields()) {
    const auto start = at + static_cast<std::size_t>(f.offset);
    const auto item_bytes = static_cast<std::size_t>(f.item_bytes());
    const auto count = static_cast<std::size_t>(f.bytes()) / std::max<std::size_t>(1, item_bytes);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t item = start + i * item_bytes;
      if (f.record != nullptr) {
        swapRecord(*f.record, data, item);
        continue;
      }
      if (f.chars == FieldChars::Bytes)
        continue;
      const std::size_t width = f.chars == FieldChars::Unicode ? 4
                                : is_complex_dtype(f.dtype)    ? item_bytes / 2
                                                               : item_bytes;
      for (std::size_t w = item; width > 1 && w + width <= item + item_bytes; w += width)
        std::reverse(data.begin() + static_cast<std::ptrdiff_t>(w),
                     data.begin() + static_cast<std::ptrdiff_t>(w + width));
    }
  }
}

// The data in little-endian order: the array's own bytes on a little-endian machine.
std::vector<std::byte> littleEndianCopy(const HostArray& array) {
  std::vector<std::byte> data = array.bytes;
  if (array.record != nullptr) {
    // Each field of each record on its own.
    const auto itemsize = static_cast<std::size_t>(array.record->itemsize());
    for (std::size_t item = 0; item + itemsize <= data.size(); item += itemsize)
      swapRecord(*array.record, data, item);
    return data;
  }
  std::size_t itemsize = dtype_itemsize(array.dtype);
  std::size_t width = is_complex_dtype(array.dtype) ? itemsize / 2 : itemsize;
  for (std::size_t offset = 0; width > 1 && offset + width <= data.size(); offset += width)
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(offset),
                 data.begin() + static_cast<std::ptrdiff_t>(offset + width));
  return data;
}

} // namespace

std::vector<std::byte> encode_npy(const HostArray& array) {
  checkWritable(array, "");
  std::vector<std::byte> contents =
      npy::formatNpyHeader(array.dtype, array.record.get(), array.chars, array.shape);
  if constexpr (std::endian::native == std::endian::little) {
    contents.insert(contents.end(), array.bytes.begin(), array.bytes.end());
  } else {
    std::vector<std::byte> data = littleEndianCopy(array);
    contents.insert(contents.end(), data.begin(), data.end());
  }
  return contents;
}

void write_npy(const std::filesystem::path& path, const HostArray& array) {
  checkWritable(array, path.string());
  std::vector<std::byte> header =
      npy::formatNpyHeader(array.dtype, array.record.get(), array.chars, array.shape);
  std::vector<std::byte> swapped;
  std::span<const std::byte> data = array.bytes;
  if constexpr (std::endian::native != std::endian::little) {
    swapped = littleEndianCopy(array);
    data = swapped;
  }
  std::span<const std::byte> pieces[] = {header, data};
  base::replaceFile(path, pieces, 0666, ErrorKind::File);
}

} // namespace pyk
