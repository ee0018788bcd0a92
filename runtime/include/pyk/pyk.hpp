// pyk: the C++ host API, mirroring numba.cuda's (load a .pyk module, move arrays, launch kernels).
#pragma once

#include "pyk/datetime.hpp"
#include "pyk/device.hpp"
#include "pyk/device_array.hpp"
#include "pyk/dtype.hpp"
#include "pyk/error.hpp"
#include "pyk/graph.hpp"
#include "pyk/kernel.hpp"
#include "pyk/npy.hpp"
#include "pyk/print.hpp"
#include "pyk/random.hpp"
#include "pyk/record.hpp"
#include "pyk/settings.hpp"
#include "pyk/stream.hpp"
#include "pyk/version.hpp"
