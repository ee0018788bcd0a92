// SupportHeaderDigests: the support headers' SHA-256, once a process (SupportHeaders.h).
#include "jit/Sha256.h"
#include "jit/SupportHeaders.h"

namespace pyk::jit {

const std::string& cudaSupportHeaderDigest() {
  static const std::string digest = toHex(Sha256::of(cudaSupportHeaderText()));
  return digest;
}

const std::string& cpuSupportHeaderDigest() {
  static const std::string digest = toHex(Sha256::of(cpuSupportHeaderText()));
  return digest;
}

} // namespace pyk::jit
