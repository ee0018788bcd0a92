// ArgumentSignatureTest: the packed argument types that find a loaded specialization without a
// string (ArgumentTypes' packSignature) tell every dtype, rank and layout of an array apart, and
// every scalar dtype: an array of timedelta64[D] and a 0-d array of another dtype once shared a
// code (the dtype's bits ran into the rank's when the datetime dtypes came), which would have
// launched a specialization typed for other arguments. Character arrays, whose length the code
// cannot hold, are not packed (the string-keyed path types them).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "CpuBackendTest.h"
#include "module/ArgumentTypes.h"
#include "pyk/pyk.hpp"

namespace {

using pyk::Dtype;
using pyk::KernelArgument;

class ArgumentSignature : public CpuBackendTest {};

TEST_F(ArgumentSignature, EveryDtypeRankAndLayoutPacksApart) {
  // code -> the argument's numba type (and scalar dtype): one type per code
  std::map<std::uint16_t, std::string> types;
  std::set<std::string> seen;
  auto note = [&](const KernelArgument& a, std::uint16_t code) {
    const std::string type = pyk::detail::typeOf(a).str();
    seen.insert(type);
    auto [it, inserted] = types.emplace(code, type);
    EXPECT_TRUE(inserted || it->second == type) << it->second << " and " << type << " share a code";
  };
  auto pack = [&](const pyk::AnyDeviceArray& v) { // the array alive while it is packed
    const KernelArgument a = KernelArgument::of(v);
    pyk::detail::ArgumentSignature s;
    ASSERT_TRUE(pyk::detail::packSignature({&a, 1}, s));
    note(a, s.codes[0]);
  };
  for (Dtype d : pyk::kAllDtypes) {
    KernelArgument scalar;
    scalar.dtype = d;
    pyk::detail::ArgumentSignature s;
    ASSERT_TRUE(pyk::detail::packSignature({&scalar, 1}, s));
    note(scalar, s.codes[0]);
    for (int ndim = 0; ndim <= 3; ++ndim) {
      const pyk::AnyDeviceArray a =
          pyk::AnyDeviceArray::allocate(d, std::vector<std::int64_t>(ndim, 2));
      pack(a);
      if (ndim >= 2)
        pack(a.transpose()); // layout F
      if (ndim >= 1)
        pack(a.slice(0, 0, 2, 2)); // layout A
    }
  }
  EXPECT_EQ(types.size(), seen.size()) << "two argument types share a packed code";
}

TEST_F(ArgumentSignature, CharacterArraysAreNotPacked) {
  pyk::HostArray h;
  h.dtype = Dtype::Unicode;
  h.chars = 3;
  h.shape = {2};
  h.bytes.resize(24);
  const pyk::AnyDeviceArray a = pyk::to_device(h);
  EXPECT_EQ(a.chars(), 3);
  EXPECT_EQ(a.itemsize(), 12u);
  const KernelArgument arg = KernelArgument::of(a);
  pyk::detail::ArgumentSignature s;
  EXPECT_FALSE(pyk::detail::packSignature({&arg, 1}, s));
  EXPECT_EQ(pyk::detail::typeOf(arg).str(), "array([unichr x 3], 1d, C)");
  EXPECT_EQ(a.copy_to_host(), h);
  try {
    (void)pyk::AnyDeviceArray::allocate(Dtype::Bytes, {4});
    ADD_FAILURE() << "allocated bytes items without their length";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(std::string(e.what()), "an array of bytes items needs their length (make it from a "
                                     "HostArray with to_device)");
  }
}

} // namespace
