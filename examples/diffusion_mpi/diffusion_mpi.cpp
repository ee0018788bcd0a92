// diffusion_mpi: seed 001's 2-D diffusion (examples/diffusion.pyk, its kernel unchanged) over MPI
// ranks: the field cut into strips of rows (strips.h), one device per rank, the boundary rows
// exchanged after every step (halo_exchange.h). Each rank launches the seed's kernel on its strip
// with its halo rows, so every cell sees the neighbours it sees in one process and the result is
// the single-process result bit for bit (tests/mpi checks 1, 2 and 4 ranks against --serial).
//
//   mpirun -np 4 pyk_diffusion_mpi [options]        the decomposed run
//   pyk_diffusion_mpi --serial [options]            the same steps in one process, without MPI
//
// Options: --size ROWS,COLS (2000,2000: the seed's image), --steps N (200), --output FILE.npy (the
// final field, written by rank 0), --halo auto|direct|staged (how halo rows reach MPI: auto is
// direct on the CPU backend and with a CUDA-aware MPI, else staged through the host),
// --examples DIR (where diffusion.pyk is). Rank r uses device (local rank) % pyk::device_count():
// one GPU per rank on a node whose ranks each see all GPUs, or the one CUDA_VISIBLE_DEVICES leaves.
// Prints one line for bench/mpi/run_scaling.sh:
//   SCALING ranks=4 rows=2000 cols=2000 steps=200 step_us=... compute_us=... halo_us=... ...
// and the main job's RESULT line (examples/host/example.h), verified when the total is conserved
// and the field stays within its original range, as the single-process example checks.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "halo_exchange.h"
#include "jagged_field.h"
#include "pyk/pyk.hpp"
#include "strips.h"

namespace {

using diffusion_mpi::HaloExchange;
using diffusion_mpi::HaloPath;
using diffusion_mpi::Strip;
using Field = pyk::DeviceArray<float, 2>;

constexpr int kTpb = 8; // the kernel's block edge (TPB in diffusion.pyk)

struct Options {
  std::int64_t rows = 2000, cols = 2000;
  int steps = 200;
  std::filesystem::path output;
  bool serial = false;
  std::string halo = "auto";
  std::filesystem::path examples = PYK_EXAMPLES_DIR;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const std::string& name) -> std::string {
      if (arg.rfind(name + "=", 0) == 0)
        return arg.substr(name.size() + 1);
      if (arg == name && i + 1 < argc)
        return argv[++i];
      throw std::invalid_argument(name + " needs a value");
    };
    auto number = [](const std::string& text, const std::string& what) {
      std::size_t used = 0;
      long long n = 0;
      try {
        n = std::stoll(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || n < 1)
        throw std::invalid_argument(what + ": expected a positive integer, got `" + text + "`");
      return static_cast<std::int64_t>(n);
    };
    if (arg == "--serial") {
      o.serial = true;
    } else if (arg.rfind("--size", 0) == 0) {
      const std::string v = value("--size");
      const std::size_t comma = v.find(',');
      if (comma == std::string::npos)
        throw std::invalid_argument("--size: expected ROWS,COLS, got `" + v + "`");
      o.rows = number(v.substr(0, comma), "--size rows");
      o.cols = number(v.substr(comma + 1), "--size columns");
    } else if (arg.rfind("--steps", 0) == 0) {
      o.steps =
          static_cast<int>(std::min<std::int64_t>(number(value("--steps"), "--steps"), 1 << 30));
    } else if (arg.rfind("--output", 0) == 0) {
      o.output = value("--output");
    } else if (arg.rfind("--halo", 0) == 0) {
      o.halo = value("--halo");
    } else if (arg.rfind("--examples", 0) == 0) {
      o.examples = value("--examples");
    } else {
      throw std::invalid_argument("unknown option `" + arg + "`");
    }
  }
  // MPI counts are ints: a field's rows and a row's cells each fit one (the strips travel as rows).
  if (o.rows > std::numeric_limits<int>::max() || o.cols > std::numeric_limits<int>::max())
    throw std::invalid_argument(
        "--size: at most " + std::to_string(std::numeric_limits<int>::max()) + " rows and columns");
  // Said now, not after the run.
  if (!o.output.empty()) {
    const std::filesystem::path folder =
        o.output.has_parent_path() ? o.output.parent_path() : std::filesystem::path(".");
    if (!std::filesystem::is_directory(folder))
      throw std::invalid_argument("--output " + o.output.string() + ": the folder " +
                                  folder.string() + " does not exist");
  }
  return o;
}

pyk::Dim3 blocksFor(std::int64_t rows, std::int64_t cols) {
  return pyk::Dim3((rows + kTpb - 1) / kTpb, (cols + kTpb - 1) / kTpb);
}

// Writes the field rank 0 holds, when asked.
void writeField(const Options& o, const std::vector<float>& values) {
  if (!o.output.empty())
    pyk::write_npy(o.output, pyk::host_array<float>({o.rows, o.cols}, values));
}

// Conservation and the maximum principle, as examples/host/diffusion.cpp checks them.
bool plausible(const std::vector<float>& original, const std::vector<float>& result) {
  const double before = std::accumulate(original.begin(), original.end(), 0.0);
  const double after = std::accumulate(result.begin(), result.end(), 0.0);
  const auto [low, high] = std::minmax_element(original.begin(), original.end());
  const auto [rlow, rhigh] = std::minmax_element(result.begin(), result.end());
  const float slack = 1e-5f * std::max(1e-30f, *high);
  return std::abs(after - before) <= 1e-3 * std::max(1e-30, std::abs(before)) &&
         *rlow >= *low - slack && *rhigh <= *high + slack;
}

// The steps in one process: the reference the decomposed runs must equal.
int runSerial(const Options& o) {
  pyk::Kernel diffusion = pyk::load(o.examples / "diffusion.pyk")["diffusion"];
  const std::vector<float> original =
      example::jaggedField(static_cast<int>(o.rows), static_cast<int>(o.cols), 3966789);
  Field field = pyk::to_device<float, 2>(original, {o.rows, o.cols});
  Field next = pyk::device_array_like(field), lapl = pyk::device_array_like(field);
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < o.steps; ++s) {
    diffusion[{blocksFor(o.rows, o.cols), pyk::Dim3(kTpb, kTpb)}](field, lapl, next);
    std::swap(field, next);
  }
  const std::vector<float> result = field.copy_to_host();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writeField(o, result);
  const bool ok = plausible(original, result);
  std::printf("RESULT diffusion_serial_%lldx%lld_%d_steps %s %.6f %s\n",
              static_cast<long long>(o.rows), static_cast<long long>(o.cols), o.steps,
              pyk::backend_name(pyk::current_backend()), secs, ok ? "yes" : "no");
  return ok ? 0 : 1;
}

// This rank's rank among the ranks of its node.
int localRank(MPI_Comm world) {
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

int runDecomposed(const Options& o, MPI_Comm world) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &ranks);
  // One device per rank: a node's ranks take its devices in turn.
  pyk::select_device(localRank(world) % pyk::device_count());
  const Strip strip = diffusion_mpi::stripOf(o.rows, ranks, rank);
  const HaloPath path = diffusion_mpi::chooseHaloPath(o.halo);
  pyk::Kernel diffusion = pyk::load(o.examples / "diffusion.pyk")["diffusion"];

  // Rank 0 makes the seed's image and hands each rank its rows.
  std::vector<float> original;
  if (rank == 0)
    original = example::jaggedField(static_cast<int>(o.rows), static_cast<int>(o.cols), 3966789);
  // The strips travel as whole rows (an MPI type of one row), so counts are rows.
  MPI_Datatype row;
  MPI_Type_contiguous(static_cast<int>(o.cols), MPI_FLOAT, &row);
  MPI_Type_commit(&row);
  std::vector<int> counts(ranks), offsets(ranks);
  for (int r = 0; r < ranks; ++r) {
    const Strip s = diffusion_mpi::stripOf(o.rows, ranks, r);
    counts[r] = static_cast<int>(s.rows);
    offsets[r] = static_cast<int>(s.firstRow);
  }
  std::vector<float> local(static_cast<std::size_t>(strip.localRows() * o.cols), 0.0f);
  MPI_Scatterv(original.data(), counts.data(), offsets.data(), row,
               local.data() + strip.ownBegin() * o.cols, counts[rank], row, 0, world);

  Field field = pyk::to_device<float, 2>(local, {strip.localRows(), o.cols});
  Field next = pyk::device_array_like(field), lapl = pyk::device_array_like(field);
  HaloExchange halos(world, strip, o.cols, path);
  halos.exchange(field); // the first step's halos

  const pyk::LaunchShape shape{blocksFor(strip.localRows(), o.cols), pyk::Dim3(kTpb, kTpb)};
  auto step = [&] {
    diffusion[shape](field, lapl, next);
    pyk::synchronize(); // the rows MPI reads are written
    halos.exchange(next);
    std::swap(field, next);
  };
  // The first steps compile (and, on the CPU, specialize for the block shape): not timed.
  const int untimed = std::min(o.steps, 2);
  for (int s = 0; s < untimed; ++s)
    step();
  pyk::wait_for_compiles();
  MPI_Barrier(world);
  const double haloUntimed = halos.seconds();
  const double start = MPI_Wtime();
  for (int s = untimed; s < o.steps; ++s)
    step();
  const double wall = MPI_Wtime() - start;
  const double halo = halos.seconds() - haloUntimed;

  // The slowest rank's times, and the field gathered on rank 0.
  double mine[2] = {wall, halo}, slowest[2] = {0, 0};
  MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, world);
  const std::vector<float> all = field.copy_to_host();
  std::vector<float> result(rank == 0 ? static_cast<std::size_t>(o.rows * o.cols) : 0);
  MPI_Gatherv(all.data() + strip.ownBegin() * o.cols, counts[rank], row, result.data(),
              counts.data(), offsets.data(), row, 0, world);
  MPI_Type_free(&row);
  if (rank != 0)
    return 0;
  writeField(o, result);
  const int timed = o.steps - untimed;
  const double perStep = timed > 0 ? 1e6 / timed : 0;
  std::printf("SCALING ranks=%d rows=%lld cols=%lld steps=%d step_us=%.1f compute_us=%.1f "
              "halo_us=%.1f halo=%s backend=%s\n",
              ranks, static_cast<long long>(o.rows), static_cast<long long>(o.cols), timed,
              slowest[0] * perStep, (slowest[0] - slowest[1]) * perStep, slowest[1] * perStep,
              diffusion_mpi::haloPathName(path), pyk::backend_name(pyk::current_backend()));
  const bool ok = plausible(original, result);
  // (The field's size is in the SCALING line: the name stays within the main job's column.)
  std::printf("RESULT diffusion_mpi_%d_ranks_%d_steps %s %.6f %s\n", ranks, o.steps,
              pyk::backend_name(pyk::current_backend()), wall, ok ? "yes" : "no");
  std::fflush(stdout);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": error: " << e.what() << '\n';
    return 2;
  }
  if (o.serial) {
    try {
      return runSerial(o);
    } catch (const std::exception& e) {
      std::cerr << argv[0] << ": error: " << e.what() << '\n';
      return 1;
    }
  }
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = runDecomposed(o, MPI_COMM_WORLD);
  } catch (const std::exception& e) { // pyk::Error, or a bad option on this rank
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    // One write: Open MPI prints its abort banner on the same stream, and a message written
    // piece by piece (std::cerr flushes after each <<) can be cut by it.
    const std::string message =
        std::string(argv[0]) + ": rank " + std::to_string(rank) + ": error: " + e.what() + '\n';
    std::cerr.write(message.data(), static_cast<std::streamsize>(message.size()));
    std::cerr.flush();
    // The other ranks may wait in a collective for this one: end them all.
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
