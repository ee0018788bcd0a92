// CompilerService: the compiler as the runtime uses it, through one narrow interface. A
// SourceModule is a .pyk file (or a text) through the front end once (sema/resolve/FrontEnd.h, the
// one place it starts); it tells what the functions numba compiles in it are (FunctionInfo), and
// compiles one of them for argument types and a target (jit::compileSpecialization, under the
// module's lock: threads launching one module's kernels share it). Signature strings are parsed
// here too. Every failure is a pyk::Error: a file that cannot be read (File), the front end's or
// typing's located diagnostics, rendered as pykc prints them (Compile).
//
// Its types are the base library's (numba's types, signatures, the generated units) and the
// jit's own (targets, settings, CompiledKernel): a user of this header sees nothing of the syntax
// tree, typing, the IR or code generation. pykc's commands, which print those, use the front end
// and compileSpecialization directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/FunctionKind.h"
#include "base/FunctionSignature.h"
#include "base/GufuncLayout.h"
#include "base/NumbaType.h"
#include "jit/CompiledKernel.h"
#include "jit/JitSettings.h"

namespace pyk::jit {

// One function numba compiles (a kernel, a device function, a vectorize or guvectorize ufunc), as
// its callers see it.
struct FunctionInfo {
  std::string name;
  // Python's qualified name: `make.<locals>.k` for a kernel defined inside a function, else name.
  std::string qualifiedName;
  types::CompiledFunctionKind kind = types::CompiledFunctionKind::Kernel;
  // The signatures given to the decorator, in order; none for a lazy function (typed for each
  // launch's argument types).
  std::vector<types::FunctionSignature> signatures;
  std::vector<std::string> parameterNames;
  std::optional<types::GufuncLayout> gufuncLayout; // guvectorize
  std::string target; // vectorize/guvectorize `target=`: "cuda", "cpu", "parallel"; else ""
  // A later top-level definition rebinds the name: nothing can launch this one.
  bool shadowed = false;
  // Defined inside a function (a kernel factory).
  bool nested = false;
  // `launch_bounds=`'s first item: a launch with more threads per block is refused on every
  // backend (CUDA refuses it; its simulator does not look).
  std::optional<int64_t> maxThreadsPerBlock;
};

// Where a module's imports of the user's modules come from (sema/resolve/UserModules.h): the
// directories searched after its own (then PYK_PATH's), and modules given as text (a module built
// ahead of time carries those it imports), consulted first.
struct ImportOptions {
  std::vector<std::string> includeDirs;
  struct Embedded {
    std::string module, path, text;
  };
  std::vector<Embedded> embedded;
  // CUDA C++ files linked with every kernel (numba's link=), relative to the module's directory.
  std::vector<std::string> links;
};

class SourceModule {
public:
  // The module in the file at `path`. Throws pyk::Error: File when it cannot be read, Compile
  // with the diagnostics when the front end rejects it.
  // The modules of the user's it imports are looked for beside it, then in `includeDirs`, then
  // in PYK_PATH's directories (sema/resolve/UserModules.h).
  static std::shared_ptr<const SourceModule> load(const std::filesystem::path& path,
                                                  ImportOptions imports = {});
  // The module whose source is `text`, named `name` in messages and `#line` directives.
  static std::shared_ptr<const SourceModule> fromText(std::string text, std::string name,
                                                      ImportOptions imports = {});
  // The modules of the user's it imports, directly or not, as text (what `pykc build` embeds).
  std::vector<ImportOptions::Embedded> importedSources() const;

  ~SourceModule();
  SourceModule(const SourceModule&) = delete;
  SourceModule& operator=(const SourceModule&) = delete;

  // The file's path, or the name given to fromText.
  const std::string& path() const;
  // The front end's warnings (constructs numba compiles that Python would reject), rendered as
  // pykc prints diagnostics; empty when there are none.
  const std::string& warnings() const;

  // Every function numba compiles in the module, in source order.
  const std::vector<FunctionInfo>& functions() const;
  // The function a name denotes, as Python binds it: the last top-level definition, else a
  // function defined inside a function by its qualified name, or by its own name where no other
  // has it. Null when none does or the name is ambiguous.
  const FunctionInfo* function(std::string_view name) const;

  // `function` (one of functions()) typed for `params` (and the declared `returnType`), emitted
  // and compiled for `target` with `settings` up to Stage::Compiled; `rebuild`: compile even when
  // the disk cache has it. Throws pyk::Error (Compile) with the located diagnostics when typing or
  // emission fails; a CUDA compile that fails is in nvrtcFailure.
  CompiledKernel compile(const FunctionInfo& function, const std::vector<types::NumbaType>& params,
                         const std::optional<types::NumbaType>& returnType, const Target& target,
                         const JitSettings& settings, bool rebuild = false) const;

  // A member of one of the module's Enum or IntEnum classes (`Color`, `red`) as a kernel argument
  // (numba passes it typed as its class's member, valued as its value): its EnumMember type and
  // its value's bytes as the scalar type of its value holds them, or a tuple value's elements so.
  // Throws pyk::Error (InvalidArgument) when the module has no such class or member, or the value
  // is neither numbers nor tuples of them.
  struct EnumMemberArgument {
    types::NumbaType type;                    // the member's (an element's: its value's type)
    unsigned char value[16]{};                // a number's value
    std::vector<EnumMemberArgument> elements; // a tuple's, element by element
  };
  EnumMemberArgument enumMember(std::string_view className, std::string_view member) const;

private:
  struct State;
  explicit SourceModule(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// numba.cuda.random, the module of pyk's stdlib written in pyk whose kernels the runtime's host
// API launches (pyk::random): its source and the path messages and `#line` directives give it,
// for loading it as an ordinary module.
struct StdlibSource {
  std::string path;
  std::string_view text;
};
StdlibSource numbaCudaRandomSource();

// A signature string (`void(float32[::1], int64)`, `(int64,)`) parsed as numba parses the
// decorator's; std::nullopt with `error` set to what is wrong with it otherwise.
std::optional<types::FunctionSignature> parseSignature(std::string_view text, std::string& error);

// The declared signature numba's dispatcher picks for arguments of types `args`: the one they
// need the fewest conversions for (unsafe, then safe, then promotions), the earliest on a tie;
// `converts(arg, param)` says whether an array or record argument converts to a parameter.
// std::nullopt when none accepts them (sema/typing/SignatureChoice.h).
std::optional<std::size_t> chooseSignature(std::span<const types::FunctionSignature> signatures,
                                           std::span<const types::NumbaType> args,
                                           bool (*converts)(const types::NumbaType& arg,
                                                            const types::NumbaType& param));

} // namespace pyk::jit
