// halo_exchange: see halo_exchange.h.
#include "halo_exchange.h"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // OpenMPI's extensions: MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support
#endif

#include <stdexcept>

namespace diffusion_mpi {

const char* haloPathName(HaloPath path) {
  return path == HaloPath::Direct ? "direct" : "staged";
}

bool cudaAwareMpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

HaloPath chooseHaloPath(const std::string& requested) {
  const bool onCpu = pyk::current_backend() == pyk::Backend::Cpu;
  if (requested == "staged")
    return HaloPath::Staged;
  if (requested == "direct") {
    if (!onCpu && !cudaAwareMpi())
      throw std::invalid_argument("--halo=direct: this MPI does not take CUDA device pointers "
                                  "(not CUDA-aware); use --halo=staged or auto");
    return HaloPath::Direct;
  }
  if (requested == "auto")
    return onCpu || cudaAwareMpi() ? HaloPath::Direct : HaloPath::Staged;
  throw std::invalid_argument("--halo=" + requested + ": expected auto, direct or staged");
}

HaloExchange::HaloExchange(MPI_Comm comm, const Strip& strip, std::int64_t columns, HaloPath path)
    : comm_(comm), strip_(strip), columns_(columns), path_(path) {
  if (path_ == HaloPath::Staged) {
    send_.resize(static_cast<std::size_t>(columns));
    receive_.resize(static_cast<std::size_t>(columns));
  }
}

void HaloExchange::sendReceive(const pyk::DeviceArray<float, 2>& field, std::int64_t row, int to,
                               std::int64_t into, int from, int tag) {
  const int count = static_cast<int>(columns_);
  const int peerTo = to < 0 ? MPI_PROC_NULL : to;
  const int peerFrom = from < 0 ? MPI_PROC_NULL : from;
  if (path_ == HaloPath::Direct) {
    float* base = field.device_data();
    MPI_Sendrecv(base + row * columns_, count, MPI_FLOAT, peerTo, tag, base + into * columns_,
                 count, MPI_FLOAT, peerFrom, tag, comm_, MPI_STATUS_IGNORE);
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(columns_) * sizeof(float);
  if (to >= 0)
    field.untyped()[row].copy_to_host(send_.data(), bytes);
  MPI_Sendrecv(send_.data(), count, MPI_FLOAT, peerTo, tag, receive_.data(), count, MPI_FLOAT,
               peerFrom, tag, comm_, MPI_STATUS_IGNORE);
  if (from >= 0)
    field.untyped()[into].copy_from_host(receive_.data(), bytes);
}

void HaloExchange::exchange(const pyk::DeviceArray<float, 2>& field) {
  const double start = MPI_Wtime();
  // Up: the first own row to the rank above, the halo below from the rank below.
  sendReceive(field, strip_.ownBegin(), strip_.above(), strip_.ownEnd(), strip_.below(), 0);
  // Down: the last own row to the rank below, the halo above from the rank above.
  sendReceive(field, strip_.ownEnd() - 1, strip_.below(), 0, strip_.above(), 1);
  seconds_ += MPI_Wtime() - start;
}

} // namespace diffusion_mpi
