// halo_exchange: each step's exchange of boundary rows between neighbouring strips (strips.h),
// with MPI_Sendrecv: a rank sends its first own row up and its last own row down and receives its
// two halo rows from the same neighbours. With a CUDA-aware MPI (OpenMPI's
// MPIX_Query_cuda_support) or on the CPU backend, whose device memory is the host's, the rows'
// device addresses go to MPI directly; otherwise each row is staged through host buffers.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "pyk/pyk.hpp"
#include "strips.h"

namespace diffusion_mpi {

enum class HaloPath {
  Direct, // MPI reads and writes the arrays' memory (CPU backend, or CUDA-aware MPI)
  Staged, // each halo row copied to the host, sent, received and copied back
};
const char* haloPathName(HaloPath path);

// Whether this MPI library takes CUDA device pointers: compiled with CUDA support and saying so at
// run time (OpenMPI's mpi-ext.h); false for an MPI without the extension.
bool cudaAwareMpi();

// The path `requested` ("auto", "direct", "staged") gives on the current backend: auto is direct on
// the CPU backend and with a CUDA-aware MPI, else staged. Throws std::invalid_argument for direct
// on CUDA without a CUDA-aware MPI, naming why.
HaloPath chooseHaloPath(const std::string& requested);

class HaloExchange {
public:
  HaloExchange(MPI_Comm comm, const Strip& strip, std::int64_t columns, HaloPath path);

  // Fills `field`'s halo rows from the neighbours' boundary rows (every rank calls it each step).
  // `field` is the strip's local array (strip.localRows() x columns, C order); its last launch
  // must be finished first, or on a stream the exchange cannot see (pyk::synchronize()).
  void exchange(const pyk::DeviceArray<float, 2>& field);

  // Seconds spent in exchange() so far.
  double seconds() const { return seconds_; }

private:
  // `count` floats of row `row` of `field`, sent to `to` while row `into` is received from `from`.
  void sendReceive(const pyk::DeviceArray<float, 2>& field, std::int64_t row, int to,
                   std::int64_t into, int from, int tag);

  MPI_Comm comm_;
  Strip strip_;
  std::int64_t columns_;
  HaloPath path_;
  std::vector<float> send_, receive_; // Staged: the host copies of one row each
  double seconds_ = 0;
};

} // namespace diffusion_mpi
