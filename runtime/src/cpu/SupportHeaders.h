// SupportHeaders: stdlib/cpu/pyk_cpu_support.h and stdlib/cuda/pyk_support.h, embedded in the
// runtime at build time, so a program linked with pyk compiles kernels wherever it runs.
#pragma once

#include <string_view>

namespace pyk::cpu {

std::string_view cpuSupportHeaderText();  // stdlib/cpu/pyk_cpu_support.h
std::string_view cudaSupportHeaderText(); // stdlib/cuda/pyk_support.h (it includes this one)

} // namespace pyk::cpu
