// NpyReadTest: read_npy on .npy files built byte by byte: versions, byte orders, Fortran order,
// 0-d, empty and 32-dimensional arrays, and a precise error for every kind of bad file.
#include "pyk/error.hpp"
#include "pyk/npy.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <complex>
#include <cstring>
#include <fstream>
#include <limits>

#include "TemporaryFolder.h"

using pyk::Dtype;
using pyk::HostArray;

namespace {

// A .npy file: magic, version `major`.0, header length, `dictionary` (unpadded), `data`.
std::string npyFile(std::string_view dictionary, std::string_view data, int major = 1) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  int lengthBytes = major == 1 ? 2 : 4;
  for (int i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((dictionary.size() >> (8 * i)) & 0xff);
  out += dictionary;
  out += data;
  return out;
}

std::string header(std::string_view descr, std::string_view shape, bool fortran = false) {
  return "{'descr': '" + std::string(descr) +
         "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + std::string(shape) + ", }\n";
}

// The bytes of `value`, little-endian or big-endian.
template <typename T>
std::string bytesOf(T value, bool bigEndian = false) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  if (bigEndian == (std::endian::native == std::endian::little))
    std::reverse(bytes.begin(), bytes.end());
  return bytes;
}

template <typename T>
std::string bytesOf(std::initializer_list<T> values, bool bigEndian = false) {
  std::string bytes;
  for (T value : values)
    bytes += bytesOf(value, bigEndian);
  return bytes;
}

// The elements of an array as T, in C order.
template <typename T>
std::vector<T> elementsOf(const HostArray& array) {
  EXPECT_EQ(array.bytes.size() % sizeof(T), 0u);
  std::vector<T> values(array.bytes.size() / sizeof(T));
  std::memcpy(values.data(), array.bytes.data(), array.bytes.size());
  return values;
}

class NpyRead : public ::testing::Test {
protected:
  std::filesystem::path write(const std::string& contents, const std::string& name = "in.npy") {
    std::filesystem::path path = folder_ / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
    return path;
  }
  HostArray read(const std::string& contents) { return pyk::read_npy(write(contents)); }

  // The message of the File error reading `contents` gives, without its "PATH: " prefix.
  std::string errorOf(const std::string& contents) {
    std::filesystem::path path = write(contents);
    try {
      pyk::read_npy(path);
    } catch (const pyk::Error& error) {
      EXPECT_EQ(error.kind(), pyk::ErrorKind::File);
      std::string message = error.what();
      std::string prefix = path.string() + ": ";
      EXPECT_EQ(message.substr(0, prefix.size()), prefix) << "the message starts with the path";
      // decode_npy says the same about the same bytes.
      try {
        pyk::decode_npy(std::as_bytes(std::span(contents.data(), contents.size())), path.string());
        ADD_FAILURE() << "decode_npy accepted what read_npy refused";
      } catch (const pyk::Error& decodeError) {
        EXPECT_STREQ(decodeError.what(), error.what());
      }
      return message.substr(prefix.size());
    }
    ADD_FAILURE() << "no error";
    return "";
  }

  TemporaryFolder folder_;
};

constexpr const char* kSupported =
    "(pyk reads bool, int8..int64, uint8..uint64, float16, float32, float64, complex64, "
    "complex128, datetime64 and timedelta64 of any unit, bytes 'S<n>' and unicode 'U<n>')";

} // namespace

TEST_F(NpyRead, Version1LittleEndianFloat32) {
  HostArray array = read(npyFile(header("<f4", "(2, 3)"), bytesOf({1.f, 2.f, 3.f, 4.f, 5.f, 6.f})));
  EXPECT_EQ(array.dtype, Dtype::Float32);
  EXPECT_EQ(array.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(elementsOf<float>(array), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(NpyRead, Versions2And3) {
  for (int major : {2, 3}) {
    HostArray array =
        read(npyFile(header("<i8", "(3,)"), bytesOf<std::int64_t>({7, -8, 9}), major));
    EXPECT_EQ(array.dtype, Dtype::Int64);
    EXPECT_EQ(elementsOf<std::int64_t>(array), (std::vector<std::int64_t>{7, -8, 9}));
  }
}

TEST_F(NpyRead, BigEndianIsConvertedToNative) {
  EXPECT_EQ(elementsOf<std::int32_t>(
                read(npyFile(header(">i4", "(2,)"), bytesOf<std::int32_t>({1, -2}, true)))),
            (std::vector<std::int32_t>{1, -2}));
  EXPECT_EQ(elementsOf<std::uint16_t>(
                read(npyFile(header(">u2", "(2,)"), bytesOf<std::uint16_t>({0x1234, 5}, true)))),
            (std::vector<std::uint16_t>{0x1234, 5}));
  EXPECT_EQ(elementsOf<double>(read(npyFile(header(">f8", "(2,)"), bytesOf({0.5, -3.25}, true)))),
            (std::vector<double>{0.5, -3.25}));
  EXPECT_EQ(elementsOf<std::uint16_t>(
                read(npyFile(header(">f2", "(1,)"), bytesOf<std::uint16_t>({0x3c00}, true)))),
            (std::vector<std::uint16_t>{0x3c00})); // float16 1.0
}

TEST_F(NpyRead, BigEndianComplexSwapsEachHalf) {
  HostArray array = read(npyFile(header(">c8", "(2,)"), bytesOf({1.f, 2.f, -3.f, 4.5f}, true)));
  EXPECT_EQ(array.dtype, Dtype::Complex64);
  EXPECT_EQ(elementsOf<std::complex<float>>(array),
            (std::vector<std::complex<float>>{{1, 2}, {-3, 4.5}}));
  HostArray wide = read(npyFile(header(">c16", "(1,)"), bytesOf({1.5, -2.5}, true)));
  EXPECT_EQ(wide.dtype, Dtype::Complex128);
  EXPECT_EQ(elementsOf<std::complex<double>>(wide),
            (std::vector<std::complex<double>>{{1.5, -2.5}}));
}

TEST_F(NpyRead, NativeAndNotApplicableByteOrders) {
  EXPECT_EQ(elementsOf<std::int16_t>(
                read(npyFile(header("=i2", "(2,)"), bytesOf<std::int16_t>({300, -1})))),
            (std::vector<std::int16_t>{300, -1}));
  EXPECT_EQ(elementsOf<std::int16_t>(
                read(npyFile(header("|i2", "(2,)"), bytesOf<std::int16_t>({300, -1})))),
            (std::vector<std::int16_t>{300, -1}));
  HostArray flags = read(npyFile(header("|b1", "(3,)"), std::string("\1\0\1", 3)));
  EXPECT_EQ(flags.dtype, Dtype::Bool);
  EXPECT_EQ(elementsOf<std::uint8_t>(flags), (std::vector<std::uint8_t>{1, 0, 1}));
  // A one-byte type in any byte order is the same.
  EXPECT_EQ(read(npyFile(header(">i1", "(2,)"), "\x01\xff")).dtype, Dtype::Int8);
  EXPECT_EQ(read(npyFile(header("<u1", "(2,)"), "\x01\xff")).dtype, Dtype::UInt8);
}

TEST_F(NpyRead, EveryDtype) {
  const std::pair<const char*, Dtype> descriptors[] = {
      {"|b1", Dtype::Bool},
      {"|i1", Dtype::Int8},
      {"<i2", Dtype::Int16},
      {"<i4", Dtype::Int32},
      {"<i8", Dtype::Int64},
      {"|u1", Dtype::UInt8},
      {"<u2", Dtype::UInt16},
      {"<u4", Dtype::UInt32},
      {"<u8", Dtype::UInt64},
      {"<f2", Dtype::Float16},
      {"<f4", Dtype::Float32},
      {"<f8", Dtype::Float64},
      {"<c8", Dtype::Complex64},
      {"<c16", Dtype::Complex128},
      // numpy's datetime64 and timedelta64: every unit, and the unit-less ones
      {"<M8[D]", Dtype::Datetime64_D},
      {"<m8[ns]", Dtype::Timedelta64_ns},
      {"<M8[Y]", Dtype::Datetime64_Y},
      {"<m8[as]", Dtype::Timedelta64_as},
      {"<M8", Dtype::Datetime64_generic},
      {"<m8", Dtype::Timedelta64_generic},
  };
  for (const auto& [descr, dtype] : descriptors) {
    std::string data(3 * pyk::dtype_itemsize(dtype), '\x5a');
    HostArray array = read(npyFile(header(descr, "(3,)"), data));
    EXPECT_EQ(array.dtype, dtype) << descr;
    EXPECT_EQ(array.bytes.size(), data.size()) << descr;
  }
}

TEST_F(NpyRead, DatetimeUnitsAndNamesRoundTrip) {
  for (pyk::Dtype d : pyk::kAllDtypes) {
    if (!pyk::is_datetime_dtype(d) && !pyk::is_timedelta_dtype(d))
      continue;
    EXPECT_EQ(pyk::dtype_named(pyk::dtype_name(d)), d) << pyk::dtype_name(d);
    EXPECT_EQ(pyk::dtype_itemsize(d), 8u);
    HostArray h;
    h.dtype = d;
    h.shape = {2};
    const std::string data =
        bytesOf<std::int64_t>({-3, std::numeric_limits<std::int64_t>::min()}); // NaT
    h.bytes.resize(data.size());
    std::memcpy(h.bytes.data(), data.data(), data.size());
    const std::filesystem::path path = folder_ / "dt.npy";
    pyk::write_npy(path, h);
    EXPECT_EQ(pyk::read_npy(path), h) << pyk::dtype_name(d);
  }
  EXPECT_EQ(pyk::dtype_name(Dtype::Datetime64_D), "datetime64[D]");
  EXPECT_EQ(pyk::dtype_name(Dtype::Timedelta64_generic), "timedelta64");
}

TEST_F(NpyRead, BytesAndUnicodeItemsCarryTheirLength) {
  HostArray s = read(npyFile(header("|S3", "(2,)"), std::string_view("abcxy\0", 6)));
  EXPECT_EQ(s.dtype, Dtype::Bytes);
  EXPECT_EQ(s.chars, 3);
  EXPECT_EQ(s.itemsize(), 3u);
  HostArray u = read(npyFile(header("<U2", "(1,)"), bytesOf<std::uint32_t>({0xe9, 0x41})));
  EXPECT_EQ(u.dtype, Dtype::Unicode);
  EXPECT_EQ(u.chars, 2);
  EXPECT_EQ(elementsOf<std::uint32_t>(u), (std::vector<std::uint32_t>{0xe9, 0x41}));
  for (const HostArray& h : {s, u}) {
    const std::filesystem::path path = folder_ / "chars.npy";
    pyk::write_npy(path, h);
    EXPECT_EQ(pyk::read_npy(path), h);
  }
}

TEST_F(NpyRead, FortranOrderIsTransposedToCOrder) {
  // [[1, 2, 3], [4, 5, 6]] stored column by column.
  HostArray matrix =
      read(npyFile(header("<i4", "(2, 3)", true), bytesOf<std::int32_t>({1, 4, 2, 5, 3, 6})));
  EXPECT_EQ(matrix.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(elementsOf<std::int32_t>(matrix), (std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}));

  // A 2x3x4 array whose element (i, j, k) is 100i + 10j + k, in Fortran order.
  std::string fortran;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i)
        fortran += bytesOf<std::int16_t>(static_cast<std::int16_t>(100 * i + 10 * j + k), true);
  HostArray cube = read(npyFile(header(">i2", "(2, 3, 4)", true), fortran));
  std::vector<std::int16_t> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        expected.push_back(static_cast<std::int16_t>(100 * i + 10 * j + k));
  EXPECT_EQ(elementsOf<std::int16_t>(cube), expected);
}

TEST_F(NpyRead, FortranOrderOfOneDimensionAndEmptyArrays) {
  EXPECT_EQ(elementsOf<float>(read(npyFile(header("<f4", "(2,)", true), bytesOf({1.f, 2.f})))),
            (std::vector<float>{1, 2}));
  EXPECT_TRUE(read(npyFile(header("<f4", "(3, 0)", true), "")).bytes.empty());
}

TEST_F(NpyRead, ZeroDimensionalArray) {
  HostArray scalar = read(npyFile(header("<f8", "()"), bytesOf(2.5)));
  EXPECT_TRUE(scalar.shape.empty());
  EXPECT_EQ(scalar.element_count(), 1);
  EXPECT_EQ(elementsOf<double>(scalar), (std::vector<double>{2.5}));
}

TEST_F(NpyRead, EmptyArrays) {
  HostArray empty = read(npyFile(header("<f4", "(0,)"), ""));
  EXPECT_EQ(empty.shape, (std::vector<std::int64_t>{0}));
  EXPECT_TRUE(empty.bytes.empty());
  HostArray emptyMiddle = read(npyFile(header("<i8", "(2, 0, 3)"), ""));
  EXPECT_EQ(emptyMiddle.shape, (std::vector<std::int64_t>{2, 0, 3}));
  EXPECT_EQ(emptyMiddle.element_count(), 0);
}

TEST_F(NpyRead, ThirtyTwoDimensions) {
  std::string shape = "(";
  for (int d = 0; d < 32; ++d)
    shape += d == 0 ? "2, " : d == 31 ? "3" : "1, ";
  shape += ")";
  HostArray array = read(npyFile(header("<u1", shape), "abcdef"));
  EXPECT_EQ(array.shape.size(), 32u);
  EXPECT_EQ(array.element_count(), 6);
}

TEST_F(NpyRead, HeaderSpellingsNumpyAccepts) {
  std::string data = bytesOf({1.f, 2.f});
  // Keys in another order, double quotes, no trailing comma, odd whitespace, Python 2's 3L.
  for (std::string dictionary : {
           std::string("{'shape': (2,), 'fortran_order': False, 'descr': '<f4'}"),
           std::string("{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,)}"),
           std::string("  {'descr':'<f4','fortran_order':False,'shape':(2L,),}   \n"),
           std::string("{'descr': '<f4',\n 'fortran_order': False,\t'shape': ( 2 , ) }\n"),
       }) {
    HostArray array = read(npyFile(dictionary, data));
    EXPECT_EQ(elementsOf<float>(array), (std::vector<float>{1, 2})) << dictionary;
  }
}

TEST_F(NpyRead, TrailingBytesAfterTheDataAreIgnored) {
  HostArray array = read(npyFile(header("<i4", "(1,)"), bytesOf<std::int32_t>({5}) + "garbage"));
  EXPECT_EQ(elementsOf<std::int32_t>(array), (std::vector<std::int32_t>{5}));
}

TEST_F(NpyRead, DecodeNpyReadsTheSameBytes) {
  std::string contents =
      npyFile(header(">f4", "(2, 2)", true), bytesOf({1.f, 3.f, 2.f, 4.f}, true));
  HostArray decoded =
      pyk::decode_npy(std::as_bytes(std::span(contents.data(), contents.size())), "memory");
  EXPECT_EQ(decoded, read(contents));
  EXPECT_EQ(elementsOf<float>(decoded), (std::vector<float>{1, 2, 3, 4}));
}

TEST_F(NpyRead, UnsupportedDtypes) {
  EXPECT_EQ(errorOf(npyFile(header(">U5", "(1,)"), std::string(20, 'a'))),
            "unsupported dtype '>U5': big-endian unicode");
  for (const char* descr : {"|O", "|S0", "<U", "|S3x", "<M8[2s]", "<m8[B]", "<M8[D", "|V8", "<f16",
                            "<c32", "<i16", "<f3", "f", "", "<", "<b2"})
    EXPECT_EQ(errorOf(npyFile(header(descr, "(1,)"), std::string(64, 'a'))),
              "unsupported dtype '" + std::string(descr) + "' " + kSupported);
  // Records are read (RecordDtypeTest), sub-array fields included; sub-arrays of records are
  // not (numba has no type for them).
  EXPECT_EQ(errorOf(npyFile("{'descr': [('x', [('a', '<f4')], (2,)), ('y', '<i4')], "
                            "'fortran_order': False, 'shape': (1,), }",
                            std::string(12, 'a'))),
            "unsupported structured dtype [('x', [('a', '<f4')], (2,)), ('y', '<i4')]: the "
            "sub-array of records 'x' (numba has no type for it)");
}

TEST_F(NpyRead, BadMagic) {
  EXPECT_EQ(errorOf(""), "not a .npy file (it does not start with \\x93NUMPY)");
  EXPECT_EQ(errorOf("\x93NUMP"), "not a .npy file (it does not start with \\x93NUMPY)");
  EXPECT_EQ(errorOf("PK\x03\x04 a zip file, perhaps an .npz"),
            "not a .npy file (it does not start with \\x93NUMPY)");
}

TEST_F(NpyRead, UnsupportedVersions) {
  std::string file = npyFile(header("<f4", "(1,)"), bytesOf(1.f));
  file[6] = 4;
  EXPECT_EQ(errorOf(file), "unsupported .npy format version 4.0 (pyk reads 1.0, 2.0 and 3.0)");
  file[6] = 1;
  file[7] = 1;
  EXPECT_EQ(errorOf(file), "unsupported .npy format version 1.1 (pyk reads 1.0, 2.0 and 3.0)");
  file[6] = 0;
  file[7] = 0;
  EXPECT_EQ(errorOf(file), "unsupported .npy format version 0.0 (pyk reads 1.0, 2.0 and 3.0)");
}

TEST_F(NpyRead, TruncatedPreambleAndHeader) {
  EXPECT_EQ(errorOf("\x93NUMPY\x01"), "truncated .npy file: it ends inside the format version");
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x01\x00\x10", 9)),
            "truncated .npy file: it ends inside the header length");
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11)),
            "truncated .npy file: it ends inside the header length");
  std::string file = npyFile(header("<f4", "(1,)"), "");
  EXPECT_EQ(errorOf(file.substr(0, 30)), "truncated .npy file: the header is " +
                                             std::to_string(file.size() - 10) +
                                             " bytes long but the file has 20 after the preamble");
  // A version 2.0 header length of 4 GiB - 1 in a small file: refused before any allocation.
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14)),
            "truncated .npy file: the header is 4294967295 bytes long but the file has 2 after "
            "the preamble");
}

TEST_F(NpyRead, HeaderLongerThanTheLimit) {
  std::string dictionary = header("<f4", "(1,)");
  dictionary.insert(dictionary.size() - 1, std::string((1 << 20) + 10, ' '));
  EXPECT_EQ(errorOf(npyFile(dictionary, bytesOf(1.f), 2)),
            "the header is " + std::to_string(dictionary.size()) +
                " bytes long, more than pyk's limit of 1048576");
}

TEST_F(NpyRead, MalformedHeaders) {
  auto errorOfHeader = [&](const std::string& dictionary) {
    std::string message = errorOf(npyFile(dictionary, std::string(64, 'a')));
    return message.substr(0, message.find(" (header: "));
  };
  EXPECT_EQ(errorOfHeader("['descr']"), "malformed header: it does not start with '{'");
  EXPECT_EQ(errorOfHeader("{descr: '<f4'}"),
            "malformed header: expected a quoted key or '}' at offset 1");
  EXPECT_EQ(errorOfHeader("{'descr' '<f4'}"),
            "malformed header: expected ':' after the key 'descr'");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4' 'shape': (1,)}"),
            "malformed header: expected ',' or '}' after the value of 'descr'");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4, 'fortran_order': False}"),
            "malformed header: expected ',' or '}' after the value of 'descr'");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4"), "malformed header: a string is not closed");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4'"), "malformed header: the dictionary is not closed");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4',"), "malformed header: the dictionary is not closed");
  EXPECT_EQ(errorOfHeader("{'descr':"), "malformed header: the dictionary is not closed");
  EXPECT_EQ(errorOfHeader("{'shape': (1,"), "malformed header: the dictionary is not closed");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'fortran_order': False True, 'shape': (1,)}"),
            "malformed header: expected ',' or '}' after the value of 'fortran_order'");
  EXPECT_EQ(errorOfHeader("{'descr': , 'shape': (1,)}"),
            "malformed header: the key 'descr' has no value");
  EXPECT_EQ(errorOfHeader("{'shape': (1,]}"),
            "malformed header: unbalanced ']' in the value of 'shape'");
  EXPECT_EQ(errorOfHeader("{'descr': '<f\\x34'}"),
            "malformed header: escape sequences in header strings are not supported");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x"),
            "malformed header: unexpected text after the closing '}': 'x'");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}"),
            "malformed header: unexpected key 'extra' (a .npy header has exactly 'descr', "
            "'fortran_order' and 'shape')");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'fortran_order': False}"),
            "malformed header: no 'shape' key");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'shape': (1,)}"),
            "malformed header: no 'fortran_order' key");
  EXPECT_EQ(errorOfHeader("{'fortran_order': False, 'shape': (1,)}"),
            "malformed header: no 'descr' key");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}"),
            "malformed header: the key 'descr' appears twice");
  EXPECT_EQ(errorOfHeader("{'descr': 4, 'fortran_order': False, 'shape': (1,)}"),
            "malformed header: 'descr' is 4, not a dtype string such as '<f4'");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}"),
            "malformed header: 'fortran_order' is 0, not True or False");
  EXPECT_EQ(errorOfHeader("{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}"),
            "malformed header: 'fortran_order' is false, not True or False");
}

TEST_F(NpyRead, MalformedShapes) {
  auto errorOfShape = [&](const std::string& shape) {
    return errorOf(npyFile(header("<f4", shape), std::string(64, 'a')));
  };
  EXPECT_EQ(errorOfShape("[1]"), "malformed header: 'shape' is [1], not a tuple of non-negative "
                                 "integers (no parentheses)");
  EXPECT_EQ(errorOfShape("(3)"), "malformed header: 'shape' is (3), not a tuple of non-negative "
                                 "integers (a one-element tuple needs a trailing comma)");
  EXPECT_EQ(errorOfShape("(1, x)"), "malformed header: 'shape' is (1, x), not a tuple of "
                                    "non-negative integers (unexpected 'x')");
  EXPECT_EQ(errorOfShape("(1 2)"), "malformed header: 'shape' is (1 2), not a tuple of "
                                   "non-negative integers (expected ',' after an extent)");
  EXPECT_EQ(errorOfShape("(,)"), "malformed header: 'shape' is (,), not a tuple of non-negative "
                                 "integers (unexpected ',')");
  EXPECT_EQ(errorOfShape("(2, 1.5)"), "malformed header: 'shape' is (2, 1.5), not a tuple of "
                                      "non-negative integers (expected ',' after an extent)");
  EXPECT_EQ(errorOfShape("(2, -1)"), "malformed header: 'shape' (2, -1) has a negative extent");
  EXPECT_EQ(errorOfShape("(99999999999999999999,)"),
            "malformed header: 'shape' (99999999999999999999,) has an extent that does not fit "
            "in 64 bits");
}

TEST_F(NpyRead, MoreThanThirtyTwoDimensions) {
  std::string shape = "(";
  for (int d = 0; d < 33; ++d)
    shape += "1, ";
  shape += ")";
  EXPECT_EQ(errorOf(npyFile(header("<f4", shape), bytesOf(1.f))),
            "the array has more than 32 dimensions (pyk reads at most 32)");
}

TEST_F(NpyRead, ByteCountOverflow) {
  EXPECT_EQ(errorOf(npyFile(header("<f8", "(4611686018427387904, 4)"), "")),
            "shape (4611686018427387904, 4) of float64 is too large: its byte count does not fit "
            "in 64 bits");
  // numpy refuses such a shape even when another extent is 0.
  EXPECT_EQ(errorOf(npyFile(header("<c16", "(0, 4611686018427387904)"), "")),
            "shape (0, 4611686018427387904) of complex128 is too large: its byte count does not "
            "fit in 64 bits");
}

TEST_F(NpyRead, TruncatedData) {
  EXPECT_EQ(errorOf(npyFile(header("<f4", "(3, 4)"), std::string(20, 'a'))),
            "truncated data: shape (3, 4) of float32 needs 48 bytes after the header, the file "
            "has 20");
  // A terabyte-sized shape in a small file is refused without allocating it.
  EXPECT_EQ(errorOf(npyFile(header("<f4", "(1000000000000,)"), std::string(8, 'a'))),
            "truncated data: shape (1000000000000,) of float32 needs 4000000000000 bytes after "
            "the header, the file has 8");
  EXPECT_EQ(errorOf(npyFile(header("<f8", "()"), "")),
            "truncated data: shape () of float64 needs 8 bytes after the header, the file has 0");
}

TEST_F(NpyRead, FilesThatCannotBeRead) {
  std::filesystem::path missing = folder_ / "missing.npy";
  try {
    pyk::read_npy(missing);
    ADD_FAILURE() << "no error";
  } catch (const pyk::Error& error) {
    EXPECT_EQ(error.kind(), pyk::ErrorKind::File);
    EXPECT_EQ(std::string(error.what()),
              missing.string() + ": cannot open: No such file or directory");
  }
  try {
    pyk::read_npy(folder_.path());
    ADD_FAILURE() << "no error";
  } catch (const pyk::Error& error) {
    EXPECT_EQ(std::string(error.what()),
              folder_.path().string() + ": cannot read: it is a directory");
  }
}

TEST_F(NpyRead, HeaderTextInMessagesIsEscaped) {
  std::string message = errorOf(npyFile(std::string("{'descr\x01': 1}", 13), ""));
  EXPECT_NE(message.find("'descr\\x01'"), std::string::npos) << message;
}
