// RecordDtypeTest: structured dtypes in the runtime: layouts as numpy makes them (sub-arrays,
// nested records, characters), the layouts refused, .npy files of records read and written byte
// for byte as numpy does, device arrays of records, and record arrays typed as numba's Record
// arrays at launch.
#include "pyk/error.hpp"
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "CpuBackendTest.h"

using pyk::Dtype;
using pyk::HostArray;
using pyk::RecordDtype;
using pyk::RecordField;

namespace {

std::string textOf(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::vector<std::byte> recordBytesOf(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

// A .npy file of version 1.0 with this header dictionary (padded as numpy pads it) and data.
std::string recordNpyFile(const std::string& dictionary, const std::string& data) {
  std::string header = dictionary;
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string recordErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const pyk::Error& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(RecordDtype, SequentialLayoutsAreNumpys) {
  // np.dtype([('s0', '<u8'), ('s1', '<u8')], align=True)
  RecordDtype state = RecordDtype::sequential({{"s0", Dtype::UInt64}, {"s1", Dtype::UInt64}}, true);
  EXPECT_EQ(state.itemsize(), 16);
  EXPECT_EQ(state.str(), "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)");
  // np.dtype([('a', 'u1'), ('b', '<f8'), ('c', '<c8')], align=True): b at 8, c at 16, 24 bytes.
  RecordDtype aligned = RecordDtype::sequential(
      {{"a", Dtype::UInt8}, {"b", Dtype::Float64}, {"c", Dtype::Complex64}}, true);
  EXPECT_EQ(aligned.field("b")->offset, 8);
  EXPECT_EQ(aligned.field("c")->offset, 16);
  EXPECT_EQ(aligned.itemsize(), 24);
  // The same packed: b at 1, c at 9, 17 bytes.
  RecordDtype packed = RecordDtype::sequential(
      {{"a", Dtype::UInt8}, {"b", Dtype::Float64}, {"c", Dtype::Complex64}}, false);
  EXPECT_EQ(packed.field("b")->offset, 1);
  EXPECT_EQ(packed.itemsize(), 17);
  EXPECT_FALSE(packed.aligned());
  EXPECT_EQ(packed.field("nope"), nullptr);
}

TEST(RecordDtype, BadLayoutsAreRefusedWithTheReason) {
  auto make = [](std::vector<RecordField> fields, std::int64_t size, bool aligned) {
    return recordErrorOf([&] { RecordDtype(std::move(fields), size, aligned); });
  };
  EXPECT_EQ(make({}, 8, false), "structured dtype: a record needs at least one field");
  EXPECT_EQ(make({{"x", Dtype::Int32, 0}, {"x", Dtype::Int32, 4}}, 8, false),
            "structured dtype: the field name 'x' is used twice");
  EXPECT_EQ(make({{"x", Dtype::Int32, 0}, {"y", Dtype::Int32, 2}}, 8, false),
            "structured dtype: the fields 'x' and 'y' overlap");
  EXPECT_EQ(make({{"x", Dtype::Float64, 4}}, 8, false),
            "structured dtype: the field 'x' (float64 at offset 4) does not lie within the item "
            "of 8 bytes");
  EXPECT_EQ(make({{"x", Dtype::UInt8, 0}, {"y", Dtype::Float64, 1}}, 9, true),
            "structured dtype: the field 'y' is at offset 1, not a multiple of its alignment 8, "
            "in an aligned record");
  EXPECT_EQ(make({{"r", Dtype::Record, 0}}, 8, false),
            "structured dtype: the field 'r' is a record without its fields");
  auto inner = std::make_shared<const RecordDtype>(
      RecordDtype::sequential({{"a", Dtype::Int16}, {"b", Dtype::Float64}}, true));
  EXPECT_EQ(make({{"r", Dtype::Record, 0, {2}, inner}}, 32, false),
            "structured dtype: the field 'r' is a sub-array of records (numba has no type for "
            "it)");
  EXPECT_EQ(make({{"h", Dtype::Float32, 4, {3, 2}}}, 24, false),
            "structured dtype: the field 'h' (nestedarray(float32, (3, 2)) at offset 4) does not "
            "lie within the item of 24 bytes");
  EXPECT_EQ(make({{"x", Dtype::Int8, 0}, {"r", Dtype::Record, 4, {}, inner}}, 20, true),
            "structured dtype: the field 'r' is at offset 4, not a multiple of its alignment 8, "
            "in an aligned record");
  EXPECT_EQ(make({{"s", Dtype::UInt8, 0, {}, nullptr, pyk::FieldChars::Bytes, 0}}, 4, false),
            "structured dtype: the character field 's' has no characters");
  EXPECT_EQ(make({{"", Dtype::Int8, 0}}, 1, false), "structured dtype: field 0 has an empty name");
}

TEST(RecordNpy, WritesWhatNumpyWrites) {
  HostArray a;
  a.dtype = Dtype::Record;
  a.record = std::make_shared<const RecordDtype>(
      RecordDtype::sequential({{"s0", Dtype::UInt64}, {"s1", Dtype::UInt64}}, true));
  a.shape = {2};
  a.bytes.resize(32);
  for (int i = 0; i < 32; ++i)
    a.bytes[i] = static_cast<std::byte>(i);
  // np.save of np.zeros(2, xoroshiro128p_dtype), header bytes as numpy 1.24 writes them.
  const std::string expectedHeader = recordNpyFile(
      "{'descr': [('s0', '<u8'), ('s1', '<u8')], 'fortran_order': False, 'shape': (2,), }", "");
  std::string written = textOf(pyk::encode_npy(a));
  EXPECT_EQ(written.substr(0, expectedHeader.size()), expectedHeader);
  // The file does not say align=True (numpy's np.load gives aligned=False as well).
  HostArray read = pyk::decode_npy(recordBytesOf(written), "x.npy");
  EXPECT_EQ(read.record->str(),
            "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;False)");
  EXPECT_EQ(read.bytes, a.bytes);
  EXPECT_EQ(read.shape, a.shape);

  // Gaps become numpy's unnamed '|Vn' padding, in offset order; reading gives them back (the
  // aligned flag is not in the file: numpy reads aligned=False too).
  HostArray padded;
  padded.dtype = Dtype::Record;
  padded.record = std::make_shared<const RecordDtype>(
      std::vector<RecordField>{{"b", Dtype::Float64, 8}, {"a", Dtype::UInt8, 0}}, 24, false);
  padded.shape = {1};
  padded.bytes.resize(24);
  written = textOf(pyk::encode_npy(padded));
  EXPECT_NE(written.find("'descr': [('a', '|u1'), ('', '|V7'), ('b', '<f8'), ('', '|V8')]"),
            std::string::npos)
      << written;
  HostArray back = pyk::decode_npy(recordBytesOf(written), "x.npy");
  ASSERT_NE(back.record, nullptr);
  EXPECT_EQ(back.record->itemsize(), 24);
  EXPECT_EQ(back.record->field("b")->offset, 8);
  EXPECT_EQ(back.record->field("a")->offset, 0);
}

TEST(RecordNpy, ReadsNumpysFilesAndRefusesWhatItCannotHold) {
  std::string data(16, '\0');
  data[0] = 7;
  data[8] = 9;
  HostArray a =
      pyk::decode_npy(recordBytesOf(recordNpyFile(
                          "{'descr': [('s0', '<u8'), ('s1', '<u8')], 'fortran_order': False, "
                          "'shape': (1,), }",
                          data)),
                      "s.npy");
  ASSERT_EQ(a.dtype, Dtype::Record);
  EXPECT_EQ(a.record->str(), "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;False)");
  std::uint64_t words[2];
  std::memcpy(words, a.bytes.data(), 16);
  EXPECT_EQ(words[0], 7u);
  EXPECT_EQ(words[1], 9u);

  auto readError = [](const std::string& descr) {
    return recordErrorOf([&] {
      pyk::decode_npy(recordBytesOf(recordNpyFile("{'descr': " + descr +
                                                      ", 'fortran_order': False, 'shape': (1,), }",
                                                  std::string(64, '\0'))),
                      "r.npy");
    });
  };
  EXPECT_EQ(readError("[('a', [('x', '<f4')], (2,))]"),
            "r.npy: unsupported structured dtype [('a', [('x', '<f4')], (2,))]: the sub-array of "
            "records 'a' (numba has no type for it)");
  EXPECT_EQ(readError("[(('t', 'a'), '<f4')]"),
            "r.npy: unsupported structured dtype [(('t', 'a'), '<f4')]: a field with a title");
  EXPECT_EQ(readError("[('a', '>f4')]"),
            "r.npy: unsupported structured dtype [('a', '>f4')]: the big-endian field 'a'");
  EXPECT_EQ(readError("[('a', '<M8[D]')]"),
            "r.npy: unsupported structured dtype [('a', '<M8[D]')]: the field 'a' of dtype "
            "'<M8[D]'");
  EXPECT_EQ(readError("[('a', '<f4'), ('a', '<f4')]"),
            "r.npy: unsupported structured dtype [('a', '<f4'), ('a', '<f4')]: structured dtype: "
            "the field name 'a' is used twice");
  EXPECT_EQ(readError("[('a' '<f4')]"),
            "r.npy: malformed header: 'descr' is [('a' '<f4')], not a list of (name, dtype) "
            "fields");
}

// numpy's files of records with sub-array fields (numba's test_record_dtype `recordtype`, with
// its trailing padding), nested records and character fields, as np.save wrote them: pyk reads
// the fields where numpy put them and writes the same bytes back.
TEST(RecordNpy, SubArraysNestedRecordsAndCharactersAreReadAndWrittenAsNumpyDoes) {
  // np.save leaves room for the first extent to grow to 21 digits.
  const std::string kGrowthPadding(20, ' ');
  auto roundTrip = [](const std::string& file) {
    HostArray a = pyk::decode_npy(recordBytesOf(file), "r.npy");
    EXPECT_EQ(textOf(pyk::encode_npy(a)), file);
    return a;
  };
  // np.zeros(2, recordtype) with a = [0.5, 1], b = [1, 2], c = [1j, 2j], d = [[1..5], [6..10]].
  HostArray sub = roundTrip(recordNpyFile(
      "{'descr': [('a', '<f8'), ('b', '<i4'), ('c', '<c8'), ('d', '|u1', (5,)), ('', '|V7')], "
      "'fortran_order': False, 'shape': (2,), }" +
          kGrowthPadding,
      std::string("\0\0\0\0\0\0\340\77\1\0\0\0\0\0\0\0\0\0\200\77\1\2\3\4\5\0\0\0\0\0\0\0"
                  "\0\0\0\0\0\0\360\77\2\0\0\0\0\0\0\0\0\0\0\100\6\7\10\11\12\0\0\0\0\0\0\0",
                  64)));
  EXPECT_EQ(sub.record->str(),
            "Record(a[type=float64;offset=0],b[type=int32;offset=8],c[type=complex64;offset=12],"
            "d[type=nestedarray(uint8, (5,));offset=20];32;False)");
  EXPECT_EQ(sub.record->field("d")->shape, std::vector<std::int64_t>{5});
  EXPECT_EQ(static_cast<int>(sub.bytes[32 + 20 + 4]), 10);
  // A nested aligned record inside an aligned one.
  HostArray nested = roundTrip(recordNpyFile(
      "{'descr': [('x', '|i1'), ('', '|V7'), ('r', [('a', '<i2'), ('', '|V6'), ('b', '<f8')])], "
      "'fortran_order': False, 'shape': (1,), }" +
          kGrowthPadding,
      std::string(24, '\0')));
  EXPECT_EQ(nested.record->str(),
            "Record(x[type=int8;offset=0],r[type=Record(a[type=int16;offset=0],b[type=float64;"
            "offset=8];16;False);offset=8];24;False)");
  EXPECT_EQ(nested.record->field("r")->record->itemsize(), 16);
  // Bytes and UCS-4 characters, in a 0-d array.
  HostArray chars = roundTrip(recordNpyFile(
      "{'descr': [('x', '<f4'), ('y', '|S12'), ('z', '<U3')], 'fortran_order': False, 'shape': "
      "(), }",
      std::string("\0\0\300\77ABC\0\0\0\0\0\0\0\0\0x\0\0\0y\0\0\0\0\0\0\0", 28)));
  EXPECT_EQ(chars.record->str(),
            "Record(x[type=float32;offset=0],y[type=[char x 12];offset=4],z[type=[unichr x 3];"
            "offset=16];28;False)");
  EXPECT_EQ(chars.record->field("z")->chars, pyk::FieldChars::Unicode);
}

class RecordArrays : public CpuBackendTest {};

TEST_F(RecordArrays, KernelsSeeRecordArraysAsNumbaRecords) {
  pyk::Module m = pyk::loads(R"pyk(
from numba import cuda

@cuda.jit
def step(ps, dt):
    i = cuda.grid(1)
    if i < ps.shape[0]:
        ps[i].x += ps[i]["v"] * dt
        ps[i].n = i
)pyk",
                             "records.pyk");
  RecordDtype particle = RecordDtype::sequential(
      {{"x", Dtype::Float64}, {"v", Dtype::Float32}, {"n", Dtype::Int32}}, true);
  ASSERT_EQ(particle.itemsize(), 16);
  struct Particle {
    double x;
    float v;
    std::int32_t n;
  };
  std::vector<Particle> host = {{1.0, 2.0f, -1}, {10.0, -4.0f, -1}, {0.5, 0.25f, -1}};
  pyk::AnyDeviceArray ps = pyk::AnyDeviceArray::allocate(particle, {3});
  EXPECT_EQ(ps.itemsize(), 16u);
  ps.copy_from_host(host.data(), host.size() * sizeof(Particle));
  m["step"][{1, 4}](ps, 0.5);
  HostArray out = ps.copy_to_host();
  ASSERT_EQ(out.record->str(), particle.str());
  std::vector<Particle> got(3);
  std::memcpy(got.data(), out.bytes.data(), out.bytes.size());
  EXPECT_EQ(got[0].x, 2.0);
  EXPECT_EQ(got[1].x, 8.0);
  EXPECT_EQ(got[2].x, 0.625);
  EXPECT_EQ(got[2].n, 2);

  // A record with other fields specializes anew; a kernel with a declared record signature
  // refuses it, naming both types.
  pyk::Module typed = pyk::loads(R"pyk(
import numpy as np
import numba
from numba import cuda, void
pair = numba.from_dtype(np.dtype([("a", np.int32), ("b", np.int32)], align=True))

@cuda.jit(void(pair[::1]))
def swap(r):
    i = cuda.grid(1)
    t = r[i].a
    r[i].a = r[i].b
    r[i].b = t
)pyk",
                                 "typed.pyk");
  std::string message = recordErrorOf([&] { typed["swap"][{1, 3}](ps); });
  EXPECT_NE(message.find("Record(x[type=float64;offset=0]"), std::string::npos) << message;
  pyk::AnyDeviceArray pairs = pyk::AnyDeviceArray::allocate(
      RecordDtype::sequential({{"a", Dtype::Int32}, {"b", Dtype::Int32}}, true), {3});
  std::vector<std::int32_t> values = {1, 2, 3, 4, 5, 6};
  pairs.copy_from_host(values.data(), values.size() * 4);
  typed["swap"][{1, 3}](pairs);
  pairs.copy_to_host(values.data(), values.size() * 4);
  EXPECT_EQ(values, (std::vector<std::int32_t>{2, 1, 4, 3, 6, 5}));
}

TEST_F(RecordArrays, ARecordArrayNeedsItsFields) {
  EXPECT_EQ(recordErrorOf([] { pyk::AnyDeviceArray::allocate(Dtype::Record, {2}); }),
            "an array of records needs the record's fields (allocate it with a RecordDtype)");
}

} // namespace
