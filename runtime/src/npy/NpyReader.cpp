// NpyReader: .npy files (or their bytes) to HostArrays in C order and native byte order.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy/NpyHeader.h"
#include "pyk/error.hpp"
#include "pyk/npy.hpp"

namespace pyk {

namespace {

[[noreturn]] void fail(std::string_view name, const std::string& what) {
  throw Error(ErrorKind::File, std::string(name) + ": " + what);
}

void checkDataFits(const npy::NpyHeader& header, std::uint64_t bytesAfterHeader,
                   std::string_view name) {
  if (header.dataBytes > bytesAfterHeader)
    fail(name, "truncated data: shape " + npy::shapeText(header.shape) + " of " +
                   std::string(dtype_name(header.dtype)) + " needs " +
                   std::to_string(header.dataBytes) + " bytes after the header, the file has " +
                   std::to_string(bytesAfterHeader));
}

// Reverses the bytes of each `width`-byte word (an element, or half of a complex element).
void swapWords(std::vector<std::byte>& data, std::size_t width) {
  for (std::size_t offset = 0; offset + width <= data.size(); offset += width)
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(offset),
                 data.begin() + static_cast<std::ptrdiff_t>(offset + width));
}

// The elements of a Fortran-order array rearranged into C order.
std::vector<std::byte> fortranToC(const std::vector<std::byte>& fortran,
                                  const std::vector<std::int64_t>& shape, std::size_t itemsize) {
  if (fortran.empty() || shape.size() < 2)
    return fortran;
  std::vector<std::byte> c(fortran.size());
  std::size_t rank = shape.size();
  // fortranStride[d]: elements between neighbours along dimension d in the Fortran layout.
  std::vector<std::int64_t> fortranStride(rank, 1);
  for (std::size_t d = 1; d < rank; ++d)
    fortranStride[d] = fortranStride[d - 1] * shape[d - 1];
  std::vector<std::int64_t> index(rank, 0); // the C-order position, last dimension fastest
  std::int64_t innerExtent = shape[rank - 1];
  std::int64_t innerStride = fortranStride[rank - 1];
  std::byte* out = c.data();
  for (;;) {
    std::int64_t source = 0;
    for (std::size_t d = 0; d + 1 < rank; ++d)
      source += index[d] * fortranStride[d];
    for (std::int64_t i = 0; i < innerExtent; ++i, out += itemsize)
      std::memcpy(out,
                  fortran.data() + static_cast<std::size_t>(source + i * innerStride) * itemsize,
                  itemsize);
    std::size_t d = rank - 1;
    while (d-- > 0) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1))
      break;
  }
  return c;
}

HostArray arrayOf(npy::NpyHeader header, std::vector<std::byte> data) {
  std::size_t itemsize =
      header.record != nullptr           ? static_cast<std::size_t>(header.record->itemsize())
      : is_character_dtype(header.dtype) ? character_itemsize(header.dtype, header.chars)
                                         : dtype_itemsize(header.dtype);
  if (header.swapBytes) // never for records: their big-endian fields are refused
    swapWords(data, is_complex_dtype(header.dtype) ? itemsize / 2 : itemsize);
  HostArray array;
  array.dtype = header.dtype;
  array.record = header.record;
  array.chars = header.chars;
  if (header.fortranOrder)
    data = fortranToC(data, header.shape, itemsize);
  array.shape = std::move(header.shape);
  array.bytes = std::move(data);
  return array;
}

// The bytes of a file descriptor from `offset` on, exactly `size` of them.
bool readExactly(int fd, std::uint64_t offset, std::byte* out, std::size_t size) {
  while (size > 0) {
    ssize_t got = ::pread(fd, out, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    out += got;
    offset += static_cast<std::uint64_t>(got);
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

class OpenFile {
public:
  explicit OpenFile(int fd) : fd_(fd) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() { ::close(fd_); }
  int fd() const { return fd_; }

private:
  int fd_;
};

} // namespace

HostArray decode_npy(std::span<const std::byte> contents, std::string_view name) {
  npy::NpyPreamble preamble = npy::parseNpyPreamble(
      contents.first(std::min(contents.size(), npy::kLongestPreamble)), contents.size(), name);
  std::span<const std::byte> dictionary =
      contents.subspan(preamble.headerOffset, preamble.headerLength);
  npy::NpyHeader header = npy::parseNpyHeaderDictionary(
      std::string_view(reinterpret_cast<const char*>(dictionary.data()), dictionary.size()), name);
  std::size_t dataOffset = preamble.headerOffset + preamble.headerLength;
  checkDataFits(header, contents.size() - dataOffset, name);
  std::span<const std::byte> data = contents.subspan(dataOffset, header.dataBytes);
  return arrayOf(std::move(header), std::vector<std::byte>(data.begin(), data.end()));
}

HostArray read_npy(const std::filesystem::path& path) {
  std::string name = path.string();
  // Without blocking: a FIFO (or device) is refused below, never waited on at open.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    fail(name, std::string("cannot open: ") + std::strerror(errno));
  OpenFile file(fd);
  struct stat status {};
  if (::fstat(fd, &status) != 0)
    fail(name, std::string("cannot read: ") + std::strerror(errno));
  if (!S_ISREG(status.st_mode))
    fail(name, S_ISDIR(status.st_mode) ? "cannot read: it is a directory"
                                       : "cannot read: it is not a regular file");
  auto fileSize = static_cast<std::uint64_t>(status.st_size);

  std::byte start[npy::kLongestPreamble];
  std::size_t startSize = static_cast<std::size_t>(std::min<std::uint64_t>(fileSize, sizeof start));
  auto readOrFail = [&](std::uint64_t offset, std::byte* out, std::size_t size) {
    errno = 0;
    if (!readExactly(fd, offset, out, size))
      fail(name, errno != 0 ? std::string("cannot read: ") + std::strerror(errno)
                            : std::string("cannot read: the file shrank while being read"));
  };
  readOrFail(0, start, startSize);
  npy::NpyPreamble preamble =
      npy::parseNpyPreamble(std::span<const std::byte>(start, startSize), fileSize, name);

  // parseNpyPreamble checked the header against the file's size and kMaxHeaderLength.
  std::string dictionary(preamble.headerLength, '\0');
  readOrFail(preamble.headerOffset, reinterpret_cast<std::byte*>(dictionary.data()),
             dictionary.size());
  npy::NpyHeader header = npy::parseNpyHeaderDictionary(dictionary, name);

  std::uint64_t dataOffset = preamble.headerOffset + preamble.headerLength;
  checkDataFits(header, fileSize - dataOffset, name);
  std::vector<std::byte> data(static_cast<std::size_t>(header.dataBytes));
  readOrFail(dataOffset, data.data(), data.size());
  return arrayOf(std::move(header), std::move(data));
}

} // namespace pyk
