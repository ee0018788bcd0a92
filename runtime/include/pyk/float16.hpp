// float16: numba's float16 on the host (pyk::float16), an IEEE 754 binary16 value: the element
// type of float16 arrays and the type of float16 scalar arguments in the C++ API.
//
// The type is defined in the vocabulary the runtime shares with the compiler and the CPU backend's
// generated code (base/Float16.h, installed beside this header as pyk/base/Float16.h), so that
// hosts, constant folding and kernels round alike.
#pragma once

#include "base/Float16.h"
