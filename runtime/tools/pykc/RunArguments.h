// RunArguments: the syntax of `pykc run`'s kernel arguments, read into the runtime's
// KernelArguments, and the arrays they refer to written back after the run.
//
//   x.npy                 an array, read from the file (a Fortran-ordered file gives an
//                         F-contiguous array, typed F as numba types it)
//   record:x.npy          one record (numba's Record, a np.void): the only item of a .npy file of
//                         a structured dtype, passed by reference as numba passes it
//   TYPE:VALUE            a scalar of numba's dtype name: float32:0.25, int64:-7, uint32:3,
//                         bool:true, complex128:1.5,-2 (RE,IM)
//   @I                    the array (or record) of argument I again: the same memory, as numba
//                         sees one device array passed twice (`kernel[1, 1](d, d)`)
//   (ARG, ARG, ...)       a tuple (numba's UniTuple or Tuple): `()` is empty, `(ARG,)` has one
//                         element; tuples nest
//   NAME(F=ARG, ...)      a named tuple of class NAME with fields F, ... (`Point(x=int64:1,
//                         y=int64:2)`)
//   enum:CLASS.MEMBER     a member of one of the module's Enum or IntEnum classes
//                         (`enum:Color.red`), typed as numba types it (Module::enum_member)
//
// Inside a tuple a file name ends at `,` or `)`. After the run every array is written to
// DIR/arg<i>.npy (i the argument's position; an array at position j of tuple argument i to
// arg<i>_<j>.npy, and so on down nested tuples), a record as the 0-d or one-item array it was.
#pragma once

#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "pyk/pyk.hpp"

namespace pyk::driver {

class RunArguments {
public:
  // Reads each ARG in order. Throws pyk::Error (InvalidArgument) naming the argument and what is
  // wrong with it; File errors of the .npy files as read_npy throws them.
  // `module` resolves `enum:` arguments (none without it).
  explicit RunArguments(const std::vector<std::string>& texts, const Module* module = nullptr);
  RunArguments(const RunArguments&) = delete;
  RunArguments& operator=(const RunArguments&) = delete;

  const std::vector<KernelArgument>& arguments() const { return arguments_; }
  // Writes every array and record the arguments hold (an alias once per position it is given).
  void writeBack(const std::filesystem::path& folder) const;
  // How many arrays and records the arguments refer to (an alias counts once).
  std::size_t arrayCount() const { return arrays_.size(); }

private:
  void writeArrays(const KernelArgument& a, const std::filesystem::path& folder,
                   const std::string& name) const;

  std::deque<AnyDeviceArray> arrays_; // what the arguments refer to: stable addresses
  // The shape each record's file gave it (`()` or `(1,)`), to write it back the same.
  std::map<const AnyDeviceArray*, std::vector<std::int64_t>> recordShapes_;
  std::vector<KernelArgument> arguments_;
};

} // namespace pyk::driver
