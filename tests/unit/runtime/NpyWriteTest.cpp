// NpyWriteTest: write_npy writes what np.save writes, round-trips every dtype through read_npy,
// replaces files whole, and refuses arrays it cannot write.
#include "npy/NpyHeader.h"
#include "pyk/error.hpp"
#include "pyk/npy.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <set>

#include "TemporaryFolder.h"

using pyk::Dtype;
using pyk::HostArray;

namespace {

std::string contentsOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::set<std::string> filesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    names.insert(entry.path().filename().string());
  return names;
}

// An array of `dtype` and `shape` whose bytes count up from `seed`.
HostArray arrayOf(Dtype dtype, std::vector<std::int64_t> shape, int seed = 1) {
  HostArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.bytes.resize(static_cast<std::size_t>(array.element_count()) * pyk::dtype_itemsize(dtype));
  for (std::size_t i = 0; i < array.bytes.size(); ++i)
    array.bytes[i] = static_cast<std::byte>(seed + 3 * i);
  return array;
}

} // namespace

TEST(NpyWrite, HeaderIsWhatNumpyWrites) {
  TemporaryFolder folder;
  HostArray array = arrayOf(Dtype::Float32, {3, 4});
  pyk::write_npy(folder / "out.npy", array);
  std::string file = contentsOf(folder / "out.npy");
  // np.save(f, np.zeros((3, 4), np.float32)) in numpy 1.24: 128 bytes of header, then the data.
  std::string dictionary = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dictionary +
                         std::string(128 - 10 - dictionary.size() - 1, ' ') + "\n";
  ASSERT_EQ(file.size(), 128 + 48u);
  EXPECT_EQ(file.substr(0, 128), expected);
  EXPECT_EQ(std::memcmp(file.data() + 128, array.bytes.data(), 48), 0);
}

TEST(NpyWrite, DescriptorsAreLittleEndianOrNotApplicable) {
  const std::pair<Dtype, const char*> expected[] = {
      {Dtype::Bool, "'|b1'"},    {Dtype::Int8, "'|i1'"},      {Dtype::UInt8, "'|u1'"},
      {Dtype::Int16, "'<i2'"},   {Dtype::UInt64, "'<u8'"},    {Dtype::Float16, "'<f2'"},
      {Dtype::Float64, "'<f8'"}, {Dtype::Complex64, "'<c8'"}, {Dtype::Complex128, "'<c16'"},
  };
  for (const auto& [dtype, descr] : expected) {
    std::vector<std::byte> bytes = pyk::encode_npy(arrayOf(dtype, {2}));
    std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    EXPECT_NE(text.find(std::string("'descr': ") + descr), std::string::npos) << descr;
  }
}

TEST(NpyWrite, HeaderIsPaddedToSixtyFourBytes) {
  std::vector<std::vector<std::int64_t>> shapes = {{}, {0}, {7}, {1, 2, 3}, {123456789012, 0}};
  std::vector<std::int64_t> manyDimensions(32, 1);
  manyDimensions[0] = 999999999999999999;
  shapes.push_back(manyDimensions);
  for (const auto& shape : shapes) {
    std::vector<std::byte> header = pyk::npy::formatNpyHeader(Dtype::Int32, nullptr, 0, shape);
    EXPECT_EQ(header.size() % 64, 0u) << pyk::npy::shapeText(shape);
    EXPECT_EQ(header.back(), std::byte{'\n'});
    EXPECT_EQ(header[6], std::byte{1}) << "version 1.0";
  }
}

TEST(NpyWrite, Version2WhenTheHeaderOutgrowsSixteenBits) {
  std::vector<std::int64_t> shape(4000, 1000000000000000000);
  std::vector<std::byte> header = pyk::npy::formatNpyHeader(Dtype::Float64, nullptr, 0, shape);
  EXPECT_EQ(header[6], std::byte{2});
  EXPECT_EQ(header.size() % 64, 0u);
  std::uint32_t length = 0;
  for (int i = 3; i >= 0; --i)
    length = (length << 8) | std::to_integer<std::uint32_t>(header[8 + i]);
  EXPECT_EQ(length + 12u, header.size());
}

TEST(NpyWrite, EveryDtypeRoundTrips) {
  TemporaryFolder folder;
  for (Dtype dtype : pyk::kAllDtypes) {
    for (const std::vector<std::int64_t>& shape :
         {std::vector<std::int64_t>{}, {0}, {5}, {2, 3, 4}, {3, 0, 2}}) {
      HostArray array = arrayOf(dtype, shape, static_cast<int>(dtype));
      pyk::write_npy(folder / "array.npy", array);
      EXPECT_EQ(pyk::read_npy(folder / "array.npy"), array)
          << pyk::dtype_name(dtype) << " " << pyk::npy::shapeText(shape);
      std::vector<std::byte> encoded = pyk::encode_npy(array);
      std::string file = contentsOf(folder / "array.npy");
      ASSERT_EQ(file.size(), encoded.size());
      EXPECT_EQ(std::memcmp(file.data(), encoded.data(), file.size()), 0);
    }
  }
}

TEST(NpyWrite, ThirtyTwoDimensionsRoundTrip) {
  TemporaryFolder folder;
  std::vector<std::int64_t> shape(32, 1);
  shape[5] = 2;
  shape[31] = 3;
  HostArray array = arrayOf(Dtype::Int16, shape);
  pyk::write_npy(folder / "deep.npy", array);
  EXPECT_EQ(pyk::read_npy(folder / "deep.npy"), array);
}

TEST(NpyWrite, ReplacesAFileWholeAndLeavesNoTemporaryFile) {
  TemporaryFolder folder;
  pyk::write_npy(folder / "out.npy", arrayOf(Dtype::Float64, {100}));
  HostArray smaller = arrayOf(Dtype::Int8, {3});
  pyk::write_npy(folder / "out.npy", smaller);
  EXPECT_EQ(pyk::read_npy(folder / "out.npy"), smaller);
  EXPECT_EQ(filesIn(folder.path()), std::set<std::string>{"out.npy"});
}

TEST(NpyWrite, FailedWriteLeavesNothingBehind) {
  TemporaryFolder folder;
  std::filesystem::create_directory(folder / "taken.npy"); // rename cannot replace a directory
  std::filesystem::path missingFolder = folder / "no/such/folder/out.npy";
  for (const std::filesystem::path& path : {folder / "taken.npy", missingFolder}) {
    try {
      pyk::write_npy(path, arrayOf(Dtype::Float32, {4}));
      ADD_FAILURE() << "no error for " << path;
    } catch (const pyk::Error& error) {
      EXPECT_EQ(error.kind(), pyk::ErrorKind::File);
      EXPECT_EQ(std::string(error.what()).rfind(path.string() + ": cannot write: ", 0), 0u)
          << error.what();
    }
  }
  EXPECT_EQ(filesIn(folder.path()), std::set<std::string>{"taken.npy"});
  EXPECT_TRUE(std::filesystem::is_empty(folder / "taken.npy"));
}

TEST(NpyWrite, RefusesArraysItCannotWrite) {
  TemporaryFolder folder;
  HostArray shortData = arrayOf(Dtype::Float32, {4});
  shortData.bytes.pop_back();
  HostArray negative = arrayOf(Dtype::Float32, {0});
  negative.shape = {-1};
  HostArray deep = arrayOf(Dtype::UInt8, std::vector<std::int64_t>(33, 1));
  const std::pair<const HostArray*, std::string> cases[] = {
      {&shortData,
       "cannot write an inconsistent array: shape (4,) of float32 with 15 bytes of data"},
      {&negative,
       "cannot write an inconsistent array: shape (-1,) of float32 with 0 bytes of data"},
      {&deep, "cannot write an array of 33 dimensions (pyk writes at most 32)"},
  };
  for (const auto& [array, message] : cases) {
    try {
      pyk::write_npy(folder / "bad.npy", *array);
      ADD_FAILURE() << "no error for " << message;
    } catch (const pyk::Error& error) {
      EXPECT_EQ(error.kind(), pyk::ErrorKind::InvalidArgument);
      EXPECT_EQ(std::string(error.what()), (folder / "bad.npy").string() + ": " + message);
    }
    EXPECT_THROW(pyk::encode_npy(*array), pyk::Error);
  }
  EXPECT_TRUE(std::filesystem::is_empty(folder.path()));
}

TEST(Dtype, NamesAndItemsizes) {
  EXPECT_EQ(pyk::dtype_name(Dtype::Float32), "float32");
  EXPECT_EQ(pyk::dtype_name(Dtype::Bool), "bool");
  EXPECT_EQ(pyk::dtype_itemsize(Dtype::Complex128), 16u);
  EXPECT_EQ(pyk::dtype_itemsize(Dtype::Float16), 2u);
  for (Dtype dtype : pyk::kAllDtypes)
    EXPECT_EQ(pyk::dtype_named(pyk::dtype_name(dtype)), dtype);
  EXPECT_FALSE(pyk::dtype_named("float128"));
  EXPECT_FALSE(pyk::dtype_named("f4"));
}
