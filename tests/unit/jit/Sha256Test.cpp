// Sha256Test: the SHA-256 implementation against the FIPS 180-2 examples and padding edge cases.
#include "jit/Sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using pyk::jit::Sha256;
using pyk::jit::toHex;

std::string hexOf(std::string_view text) {
  return toHex(Sha256::of(text));
}

} // namespace

TEST(Sha256, FipsOneBlockMessage) {
  EXPECT_EQ(hexOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, FipsTwoBlockMessage) {
  EXPECT_EQ(hexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FipsLongMessage) {
  EXPECT_EQ(hexOf("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                  "klmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, FipsMillionAs) {
  Sha256 hash;
  std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i)
    hash.update(thousand);
  EXPECT_EQ(toHex(hash.finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(hexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// Lengths around the 56-byte and 64-byte boundaries, where padding spills into another block
// (digests from Python's hashlib).
TEST(Sha256, PaddingBoundaries) {
  const std::pair<std::size_t, const char*> expected[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
  };
  for (const auto& [length, digest] : expected)
    EXPECT_EQ(hexOf(std::string(length, 'a')), digest) << length << " bytes";
}

TEST(Sha256, AnySplitIntoUpdatesGivesTheSameDigest) {
  std::string message;
  for (int i = 0; i < 300; ++i)
    message += static_cast<char>(i * 7 + 3);
  Sha256::Digest whole = Sha256::of(message);
  for (std::size_t first = 0; first <= message.size(); first += 7) {
    for (std::size_t second = first; second <= message.size(); second += 29) {
      Sha256 hash;
      std::string_view text = message;
      hash.update(text.substr(0, first));
      hash.update(text.substr(first, second - first));
      hash.update(text.substr(second));
      ASSERT_EQ(hash.finish(), whole) << "split at " << first << " and " << second;
    }
  }
}
