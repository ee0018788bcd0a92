// KernelArgumentKindsTest: the launch arguments besides arrays and scalars, through the C++ API
// on the CPU backend: a record by reference (numba's np.void argument, written back in place), a
// record dtype with a sub-array field, tuples (std::tuple, nested, holding arrays), named tuples,
// one array passed as two arguments, 0-d arrays, Enum members, datetime64 / timedelta64 values
// and arrays, pointers (numba's CPointer, ffi.from_buffer); and the dynamic shared array's bounds.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <tuple>

#include "CpuBackendTest.h"
#include "module/ArgumentTypes.h"
#include "pyk/pyk.hpp"

namespace {

using pyk::Dtype;
using pyk::KernelArgument;
using pyk::RecordDtype;
using pyk::RecordField;

const char* kArgumentKindsSource = R"pyk(
import enum

from numba import cuda, float32


class Color(enum.Enum):
    red = 1
    green = 2


class Level(enum.IntEnum):
    low = 10
    high = 20


@cuda.jit
def elapsed(start, stop, step, out, nat):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = (stop[i] - start) // 1 + step
        nat[i] = stop[i] - stop[i] != step


@cuda.jit
def members(c, level, out):
    out[0] = c == Color.green
    out[1] = c.value
    out[2] = level + 1


@cuda.jit
def bump(rec, v):
    rec.i = rec.i + 1
    rec.j[2, 1] = v
    rec.j[0, 0] = rec.j[1, 1] * 2


@cuda.jit
def tuples(out, t):
    out[0] = t[0]
    out[1] = t[1]
    out[2] = t[2][0] + t[2][1]
    for i in range(t[3].shape[0]):
        t[3][i] = t[3][i] * 10


@cuda.jit
def point(out, p):
    out[0] = p.x * 100 + p.y


@cuda.jit
def twice(a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] + 1
        b[i] = b[i] * 3


@cuda.jit
def zero_d(total, values):
    cuda.atomic.add(total, (), values[cuda.threadIdx.x])
    if cuda.threadIdx.x == 0:
        values[0] = total.ndim + total.size


mutate = cuda.declare_device("array_mutator", "void(CPointer(int32))", link=cuda.CUSource("""
extern "C" __device__ int array_mutator(void* out, int* a) { a[0] = a[1]; return 0; }
"""))


@cuda.jit
def ffi_pointer(p):
    mutate(p)


@cuda.jit
def through_pointer(p, r, n):
    for i in range(n):
        r[i] = cuda.ldcg(p, i) * 2
        p[i] = i + 100


@cuda.jit
def dynamic(out, n):
    sm = cuda.shared.array(0, float32)
    i = cuda.threadIdx.x
    sm[i * n] = i
    out[i] = sm[i * n]
)pyk";

class KernelArgumentKinds : public CpuBackendTest {};

std::string launchErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const pyk::Error& e) {
    return e.what();
  }
  return "<no error>";
}

// numba's test_record_dtype `recordwith2darray`: an int32, then 3 x 2 float32 at offset 4.
RecordDtype pointDtype() {
  return RecordDtype({{"i", Dtype::Int32, 0}, {"j", Dtype::Float32, 4, {3, 2}}}, 28, false);
}

TEST_F(KernelArgumentKinds, APointerIsTheAddressOfAnArraysFirstItem) {
  // numba's CPointer(float32): typed as numba types ffi.from_buffer(a), read and written through.
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  pyk::DeviceArray<float, 1> a = pyk::to_device(std::vector<float>{1.5f, 2.0f, 4.0f});
  pyk::DeviceArray<float, 1> r = pyk::device_array<float>({3});
  m["through_pointer"][{1, 1}](KernelArgument::pointer_to(a), r, std::int64_t{3});
  EXPECT_EQ(r.copy_to_host(), (std::vector<float>{3.0f, 4.0f, 8.0f}));
  EXPECT_EQ(a.copy_to_host(), (std::vector<float>{100.0f, 101.0f, 102.0f}));
  EXPECT_EQ(pyk::detail::typeOf(KernelArgument::pointer_to(a)).str(), "float32*");
  // Handed on to CUDA C++ (numba-cuda's test_link_sources_in_memory_and_on_disk, with a
  // CUSource): the function writes through it.
  pyk::DeviceArray<std::int32_t, 1> ints = pyk::to_device(std::vector<std::int32_t>{0, 7});
  m["ffi_pointer"][{1, 1}](KernelArgument::pointer_to(ints));
  EXPECT_EQ(ints.copy_to_host(), (std::vector<std::int32_t>{7, 7}));
  // Only numbers: not the items of a record array.
  pyk::AnyDeviceArray records = pyk::AnyDeviceArray::allocate(pointDtype(), {2});
  EXPECT_EQ(launchErrorOf([&] { KernelArgument::pointer_to(records); }),
            "a pointer argument (numba's CPointer) points to numbers or booleans, not to the items "
            "of an array of record");
}

TEST_F(KernelArgumentKinds, ARecordIsPassedByReferenceAndWrittenInPlace) {
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  const RecordDtype dtype = pointDtype();
  EXPECT_EQ(dtype.str(), "Record(i[type=int32;offset=0],j[type=nestedarray(float32, (3, 2));"
                         "offset=4];28;False)");
  pyk::AnyDeviceArray one = pyk::AnyDeviceArray::allocate(dtype, {1});
  unsigned char bytes[28] = {};
  const std::int32_t i = 41;
  const float j[6] = {0, 1, 2, 3.5f, 4, 5};
  std::memcpy(bytes, &i, 4);
  std::memcpy(bytes + 4, j, sizeof j);
  one.copy_from_host(bytes, sizeof bytes);
  m["bump"][{1, 1}](KernelArgument::record(one), 9.0f);
  one.copy_to_host(bytes, sizeof bytes);
  std::int32_t gotI = 0;
  float gotJ[6] = {};
  std::memcpy(&gotI, bytes, 4);
  std::memcpy(gotJ, bytes + 4, sizeof gotJ);
  EXPECT_EQ(gotI, 42);
  EXPECT_EQ(gotJ[5], 9.0f);
  EXPECT_EQ(gotJ[0], 7.0f);
  EXPECT_EQ(gotJ[3], 3.5f);

  // A record argument is exactly one record.
  pyk::AnyDeviceArray two = pyk::AnyDeviceArray::allocate(dtype, {2});
  EXPECT_EQ(launchErrorOf([&] { KernelArgument::record(two); }),
            "a record argument is one record: an array of one item of a structured dtype, not an "
            "array of 2 records");
  pyk::DeviceArray<float, 1> floats = pyk::device_array<float>({1});
  EXPECT_EQ(launchErrorOf([&] { KernelArgument::record(floats.untyped()); }),
            "a record argument is one record: an array of one item of a structured dtype, not an "
            "array of float32");
}

TEST_F(KernelArgumentKinds, ZeroDimensionalArraysAreOneElementWithNoShape) {
  // numba's typeof(np.array(0.0)) is array(float64, 0d, C): made from an empty shape, in C++ as
  // DeviceArray<double, 0> or from a 0-d host array, never reshaped to (1,).
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  pyk::DeviceArray<double, 0> total = pyk::device_array<double, 0>({});
  EXPECT_EQ(total.size(), 1);
  EXPECT_EQ(total.untyped().ndim(), 0);
  total.copy_from_host(std::vector<double>{0.5}.data());
  auto values = pyk::to_device(std::vector<double>{1, 2, 3, 4});
  m["zero_d"][{1, 4}](total, values);
  EXPECT_EQ(total.copy_to_host(), (std::vector<double>{10.5}));
  EXPECT_EQ(values.copy_to_host()[0], 1.0); // ndim 0 + size 1
  pyk::HostArray host;
  host.dtype = Dtype::Float64;
  host.bytes.resize(8);
  const double seven = 7.0;
  std::memcpy(host.bytes.data(), &seven, 8);
  pyk::AnyDeviceArray fromHost = pyk::to_device(host);
  EXPECT_EQ(fromHost.ndim(), 0);
  m["zero_d"][{1, 1}](fromHost, values);
  pyk::HostArray back = fromHost.copy_to_host();
  EXPECT_TRUE(back.shape.empty());
  double got = 0;
  std::memcpy(&got, back.bytes.data(), 8);
  EXPECT_EQ(got, 8.0);
  // An empty AnyDeviceArray is no array at all: no element.
  EXPECT_EQ(pyk::AnyDeviceArray().size(), 0);
}

TEST_F(KernelArgumentKinds, EnumMembersAreTypedByTheirClass) {
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  auto out = pyk::device_array<std::int64_t>({3});
  m["members"][{1, 1}](m.enum_member("Color.green"), m.enum_member("Level.high"), out);
  EXPECT_EQ(out.copy_to_host(), (std::vector<std::int64_t>{1, 2, 21}));
  m["members"][{1, 1}](m.enum_member("Color.red"), m.enum_member("Level.low"), out);
  EXPECT_EQ(out.copy_to_host(), (std::vector<std::int64_t>{0, 1, 11}));
  // Both launches typed the kernel once, for the classes' members.
  const std::vector<std::string> overloads = m["members"].overloads();
  ASSERT_EQ(overloads.size(), 1u);
  EXPECT_NE(overloads[0].find("Enum<int64>(Color)"), std::string::npos) << overloads[0];
  EXPECT_EQ(launchErrorOf([&] { (void)m.enum_member("Color.blue"); }),
            "the Enum class `Color` of kinds.pyk has no member `blue`");
  EXPECT_EQ(launchErrorOf([&] { (void)m.enum_member("red"); }),
            "`red` is not an Enum member: write it CLASS.MEMBER (`Color.red`)");
}

TEST_F(KernelArgumentKinds, DatetimesAreCountsOfTheirUnit) {
  using pyk::time_unit;
  using Day = pyk::datetime64<time_unit::D>;
  using Hours = pyk::timedelta64<time_unit::h>;
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  // 2000-01-01 is day 10957; std::chrono's dates have the same epoch.
  const Day start =
      pyk::to_datetime64<time_unit::D>(std::chrono::sys_days{std::chrono::year{2000} / 1 / 1});
  EXPECT_EQ(start.count, 10957);
  auto stop = pyk::to_device(std::vector<Day>{{10958}, {10957}, Day::nat()});
  auto out = pyk::device_array<Hours>({3});
  auto nat = pyk::device_array<std::int64_t>({3});
  m["elapsed"][{1, 4}](start, stop, pyk::to_timedelta64<time_unit::h>(std::chrono::minutes(90)),
                       out, nat);
  // (stop - start) is in days, + 1h makes hours: 24 + 1, 0 + 1; NaT stays NaT (and != is true).
  const std::vector<Hours> hours = out.copy_to_host();
  EXPECT_EQ(hours[0].count, 25);
  EXPECT_EQ(hours[1].count, 1);
  EXPECT_TRUE(hours[2].is_nat());
  EXPECT_EQ(nat.copy_to_host(), (std::vector<std::int64_t>{1, 1, 1}));
  const std::vector<std::string> overloads = m["elapsed"].overloads();
  ASSERT_EQ(overloads.size(), 1u);
  EXPECT_NE(overloads[0].find("NPDatetime('D'), NPDatetime('D')[::1], NPTimedelta('h')"),
            std::string::npos)
      << overloads[0];
  // A timedelta of another unit is another type: numba converts none into the other.
  auto days = pyk::device_array<pyk::timedelta64<time_unit::D>>({3});
  EXPECT_NE(launchErrorOf([&] {
              m["elapsed"][{1, 4}](start, stop, Hours{1}, days, nat);
            })
                .find("cannot assign `timedelta64[h]` to an element of "
                      "`array(timedelta64[D], 1d, C)`"),
            std::string::npos);
}

TEST_F(KernelArgumentKinds, TuplesHoldScalarsTuplesAndArrays) {
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  auto out = pyk::device_array<double>({3});
  auto values = pyk::to_device(std::vector<double>{1.0, 2.0, 3.0});
  // A std::tuple: numba's Tuple(int64, float32, UniTuple(int64 x 2), array(float64, 1d, C)).
  m["tuples"][{1, 1}](out,
                      std::make_tuple(std::int64_t{7}, 2.5f,
                                      std::make_tuple(std::int64_t{3}, std::int64_t{4}), values));
  EXPECT_EQ(out.copy_to_host(), (std::vector<double>{7.0, 2.5, 7.0}));
  EXPECT_EQ(values.copy_to_host(), (std::vector<double>{10.0, 20.0, 30.0}));

  // A named tuple: its class and fields come with it.
  const KernelArgument p = KernelArgument::tuple_of(
      {KernelArgument::of(std::int64_t{3}), KernelArgument::of(0.25)}, "Point", {"x", "y"});
  const KernelArgument args[] = {KernelArgument::of(out), p};
  m["point"].launch_with({{1}, {1}}, 0, args);
  EXPECT_EQ(out.copy_to_host()[0], 300.25);
  EXPECT_EQ(launchErrorOf([] {
              KernelArgument::tuple_of({KernelArgument::of(1.0)}, "Point", {"x", "y"});
            }),
            "the named tuple `Point` has 2 field names for 1 elements");
}

TEST_F(KernelArgumentKinds, OneArrayPassedTwiceIsOneMemory) {
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  auto a = pyk::to_device(std::vector<double>{1.0, 2.0, 3.0, 4.0});
  m["twice"][{1, 4}](a, a);
  EXPECT_EQ(a.copy_to_host(), (std::vector<double>{6.0, 9.0, 12.0, 15.0}));
}

TEST_F(KernelArgumentKinds, TheDynamicSharedArrayEndsWhereTheLaunchSaysOnTheCpu) {
  pyk::Module m = pyk::loads(kArgumentKindsSource, "kinds.pyk");
  auto out = pyk::device_array<float>({4});
  m["dynamic"].launch({1}, {4}, pyk::Stream(), 16)(out, std::int64_t{1});
  EXPECT_EQ(out.copy_to_host(), (std::vector<float>{0, 1, 2, 3}));
  const std::string message = launchErrorOf(
      [&] { m["dynamic"].launch({1}, {4}, pyk::Stream(), 16)(out, std::int64_t{4}); });
  EXPECT_NE(message.find("in `dynamic`: index 4 is out of bounds for axis 0 of `sm` with size 4"),
            std::string::npos)
      << message;
}

} // namespace
