// error: the exceptions the pyk runtime throws. Every user-caused failure (a bad launch, a bad
// .npy file, a missing device, a compile error) is a pyk::Error whose message says what and where,
// and whose kind() says which failure it is (pyk::ErrorKind).
//
// The type is defined in the vocabulary the runtime shares with the compiler (base/Error.h,
// installed beside this header as pyk/base/Error.h), so that an error the compiler raises reaches
// the program as the same pyk::Error.
#pragma once

#include "base/Error.h"
