// RandomStatesTest: pyk::random's xoroshiro128+ states against values numba 0.56 computes
// (numba.cuda.random.init_xoroshiro128p_states_cpu, printed in hex), and its argument checks.
#include "pyk/error.hpp"
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "CpuBackendTest.h"

using pyk::random::Xoroshiro128pState;

namespace {

class RandomStates : public CpuBackendTest {
protected:
  static std::vector<Xoroshiro128pState> statesOf(const pyk::AnyDeviceArray& states) {
    pyk::HostArray host = states.copy_to_host();
    std::vector<Xoroshiro128pState> out(host.bytes.size() / sizeof(Xoroshiro128pState));
    std::memcpy(out.data(), host.bytes.data(), host.bytes.size());
    return out;
  }
};

TEST_F(RandomStates, MatchNumba) {
  pyk::AnyDeviceArray states = pyk::random::create_xoroshiro128p_states(4, 42);
  EXPECT_EQ(states.record()->str(), pyk::random::xoroshiro128p_dtype().str());
  EXPECT_EQ(states.record()->str(),
            "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)");
  // numba: init_xoroshiro128p_states_cpu(s, 42, 0)
  EXPECT_EQ(statesOf(states), (std::vector<Xoroshiro128pState>{
                                  {0xbdd732262feb6e95, 0xbdd732262feb6e95},
                                  {0x45a2c270718bc3b, 0x5b3939a23e533b4},
                                  {0xa67324e5ecccb8dc, 0x4a81bbd6c315729e},
                                  {0xef6261e44fd8abc9, 0xc6ebfa4759a0f22},
                              }));
  // numba: init_xoroshiro128p_states_cpu(s, 12345, 3)
  EXPECT_EQ(statesOf(pyk::random::create_xoroshiro128p_states(3, 12345, 3)),
            (std::vector<Xoroshiro128pState>{
                {0x81677962ecc05fc7, 0x6ad0e4dab75ad20b},
                {0xbefa25f3118b9bbf, 0x6c72b22d7db22783},
                {0x31bd3ad7bb6686a0, 0x986b232c0e34383e},
            }));
  // numba: init_xoroshiro128p_states_cpu(s, 2**63 - 1, 1)
  EXPECT_EQ(statesOf(pyk::random::create_xoroshiro128p_states(2, 0x7fffffffffffffff, 1)),
            (std::vector<Xoroshiro128pState>{
                {0x3375482ef1015cd2, 0xf14eaceb7a96b196},
                {0x3792564255ec7b1e, 0x61120aaf915a3194},
            }));
}

TEST_F(RandomStates, InitFillsExistingArraysAndViews) {
  // An array with the packed (aligned=False) form of the record, as .npy files give it, and a
  // strided view: both filled through a CPU-backend copy.
  pyk::AnyDeviceArray packed = pyk::AnyDeviceArray::allocate(
      pyk::RecordDtype::sequential({{"s0", pyk::Dtype::UInt64}, {"s1", pyk::Dtype::UInt64}}, false),
      {2});
  pyk::random::init_xoroshiro128p_states(packed, 42);
  EXPECT_EQ(statesOf(packed)[1], (Xoroshiro128pState{0x45a2c270718bc3b, 0x5b3939a23e533b4}));

  pyk::AnyDeviceArray six = pyk::random::create_xoroshiro128p_states(6, 1);
  pyk::AnyDeviceArray everyOther = six.slice(0, 0, 6, 2);
  pyk::random::init_xoroshiro128p_states(everyOther, 42);
  std::vector<Xoroshiro128pState> all = statesOf(six);
  EXPECT_EQ(all[0], (Xoroshiro128pState{0xbdd732262feb6e95, 0xbdd732262feb6e95}));
  EXPECT_EQ(all[2], (Xoroshiro128pState{0x45a2c270718bc3b, 0x5b3939a23e533b4}));
  EXPECT_EQ(all[4], (Xoroshiro128pState{0xa67324e5ecccb8dc, 0x4a81bbd6c315729e}));
  EXPECT_NE(all[1], all[2]);

  EXPECT_EQ(pyk::random::create_xoroshiro128p_states(0, 1).size(), 0);
}

TEST_F(RandomStates, WrongArraysAreRefused) {
  pyk::AnyDeviceArray floats = pyk::AnyDeviceArray::allocate(pyk::Dtype::Float64, {4});
  try {
    pyk::random::init_xoroshiro128p_states(floats, 1);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "init_xoroshiro128p_states: the states must be a 1-D array of "
              "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True), not a 1-D "
              "array of float64");
  }
  EXPECT_THROW(pyk::random::create_xoroshiro128p_states(-1, 1), pyk::Error);
}

} // namespace
