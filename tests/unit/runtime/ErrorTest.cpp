// ErrorTest: pyk::Error carries its kind and message.
#include "pyk/error.hpp"

#include <gtest/gtest.h>

TEST(Error, CarriesKindAndMessage) {
  pyk::Error error(pyk::ErrorKind::InvalidLaunch, "block of 2048 threads exceeds 1024");
  EXPECT_EQ(error.kind(), pyk::ErrorKind::InvalidLaunch);
  EXPECT_STREQ(error.what(), "block of 2048 threads exceeds 1024");
  EXPECT_STREQ(pyk::error_kind_name(error.kind()), "invalid launch");
}
