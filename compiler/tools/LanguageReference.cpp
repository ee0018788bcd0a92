// LanguageReference: pyk_language_reference, the program that writes docs/LANGUAGE.md: the
// hand-written part (language_statements.md, embedded at build time) followed by the names kernels
// may use, generated from the tables the compiler itself reads: the intrinsic table
// (sema/catalog/Intrinsics.def), the vector types (sema/catalog/VectorTypes.def), the stdlib's
// modules (sema/catalog/LibraryModules.def), the typing rules (sema/typing/TypeCallRules.cpp) and
// the name catalog (sema/catalog/ModuleApiCatalog).
//
//   pyk_language_reference                 prints the page
//   pyk_language_reference --output FILE   writes it to FILE
//   pyk_language_reference --check FILE    exit 1, saying how to regenerate it, when FILE differs
//
// Over 600 lines: one section writer per table, each short, kept in the one program that orders
// them as the page does.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/GeneratedPage.h"
#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/catalog/PythonBuiltins.h"
#include "sema/catalog/VectorTypes.h"
#include "sema/typing/TypeRules.h"
#include "tools/LanguageStatements.h"

namespace pyk::tools {

namespace {

using sema::Intrinsic;
using sema::IntrinsicInfo;
using sema::IntrinsicKind;
using sema::IntrinsicTyping;
using types::ScalarKind;
namespace flags = sema::intrinsic_flags;

constexpr std::string_view kUpdateCommand =
    "cmake --build build --target pyk_language_reference_update";

// A markdown table cell: `|` would end it.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += '\\';
    out += c;
  }
  return out;
}

std::string code(std::string_view text) {
  return "`" + std::string(text) + "`";
}

// The shortest text that reads back as `value` (3.141592653589793, inf, nan).
std::string number(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

// The name as kernels write it after `from numba import cuda` (`cuda.syncthreads`), or the
// module's own name (`math.sin`, `numpy.sin`, `range`).
std::string writtenName(const IntrinsicInfo& row) {
  return std::string(row.shortName());
}

std::string kindOf(const IntrinsicInfo& row) {
  switch (row.kind) {
  case IntrinsicKind::Value:
    return "value";
  case IntrinsicKind::Constant:
    return "constant";
  case IntrinsicKind::Function:
    return "function";
  case IntrinsicKind::Library:
    return "device function";
  }
  return "";
}

std::string argumentCount(const IntrinsicInfo& row) {
  if (row.kind == IntrinsicKind::Value || row.kind == IntrinsicKind::Constant)
    return "—";
  if (row.maxArgs < 0)
    return std::to_string(row.minArgs) + " or more";
  if (row.minArgs == row.maxArgs)
    return std::to_string(row.minArgs);
  return std::to_string(row.minArgs) + "–" + std::to_string(row.maxArgs);
}

// What a use of a row is typed as, in words: each typing rule once (a new rule is a compile
// warning here until it is described).
std::string ruleDescription(IntrinsicTyping typing) {
  using T = IntrinsicTyping;
  switch (typing) {
  case T::Int32Value:
    return "int32";
  case T::Float64Constant:
    return "float64";
  case T::HostConstant:
    return "a module constant only";
  case T::ArrayConstructor:
    return "a C-contiguous array of the dtype; the shape an integer constant or a tuple of them";
  case T::ConstArrayLike:
    return "a read-only copy of a module-level array, frozen into the kernel";
  case T::GridIndex:
    return "int64 for a constant 1; a tuple of 2 or 3 int64 for 2 or 3";
  case T::ThisGrid:
    return "the grid group; its `.sync()` waits for every thread of the grid";
  case T::Void:
    return "none";
  case T::BarrierPredicate:
    return "int32";
  case T::AtomicArithmetic:
    return "the old value; arrays of 32- and 64-bit integers, float32, float64";
  case T::AtomicBitwise:
  case T::AtomicCas:
    return "the old value; arrays of 32- and 64-bit integers";
  case T::AtomicIncDec:
    return "the old value; arrays of uint32, uint64";
  case T::AtomicCompareAndSwap:
    return "the old value of element 0; arrays of 32- and 64-bit integers";
  case T::LaneMask:
    return "uint32";
  case T::Vote:
    return "boolean";
  case T::Ballot:
    return "int32";
  case T::Shuffle:
    return "the value's type: int32, int64, uint32, uint64, float32, float64";
  case T::MatchAny:
    return "int32";
  case T::MatchAll:
    return "(int32, boolean)";
  case T::BitCount:
    return "the operand's integer type";
  case T::FirstSet:
    return "uint32";
  case T::BitReverse:
    return "uint32 or uint64";
  case T::SameFloat:
    return "float32 or float64, as the arguments";
  case T::Select:
    return "the two values' type";
  case T::Half:
    return "float16";
  case T::HalfPredicate:
    return "boolean";
  case T::MathUnary:
    return "float32 for float32, else float64";
  case T::MathClassify:
  case T::CmathClassify:
    return "boolean";
  case T::MathFrexp:
    return "(float, int32)";
  case T::MathModf:
    return "(float, float)";
  case T::MathAtan2:
  case T::MathBinary:
  case T::MathPow:
  case T::MathLdexp:
    return "a float";
  case T::CmathComplex:
  case T::CmathRect:
    return "complex64 or complex128";
  case T::CmathPhase:
    return "a float";
  case T::CmathPolar:
    return "(float, float)";
  case T::Range:
    return "iterates in the integer type numba's range picks (range(int32) is int32)";
  case T::Enumerate:
    return "(int64, the element)";
  case T::Zip:
    return "a tuple of one element of each";
  case T::Len:
    return "int64, of an array or a tuple";
  case T::Print:
    return "none; prints as numba does (floats as %f)";
  case T::Abs:
  case T::MinMax:
  case T::Round:
  case T::IntCast:
  case T::FloatCast:
  case T::BoolCast:
  case T::ComplexCast:
  case T::BuiltinPow:
  case T::Divmod:
    return "as numba's typing of the builtin";
  case T::VectorConstructor:
    return "the vector type";
  case T::RealImag:
    return "the real or imaginary part; of a complex array, a float view of it";
  case T::OperatorFunction:
    return "as the operator it is";
  case T::Libdevice:
    return "the function's one signature";
  case T::LibraryFunction:
    return "as its pyk source types it";
  case T::NotYetTyped:
    return "not typed yet: a call is a type error";
  }
  return "";
}

const char* kindName(ScalarKind kind) {
  return types::scalarName(kind);
}

// The argument types a row's samples try, by what the row computes on.
std::vector<ScalarKind> sampleKinds(const IntrinsicInfo& row) {
  using K = ScalarKind;
  switch (row.typing) {
  case IntrinsicTyping::Half:
  case IntrinsicTyping::HalfPredicate:
    return {K::Float16};
  case IntrinsicTyping::BitCount:
  case IntrinsicTyping::FirstSet:
  case IntrinsicTyping::BitReverse:
    return {K::Int32, K::UInt32, K::Int64, K::UInt64};
  default:
    break;
  }
  if (sema::familyOf(row.typing) == sema::IntrinsicFamily::Cmath)
    return {K::Float64, K::Complex64, K::Complex128};
  return {K::Int32, K::Int64, K::Float32, K::Float64};
}

// For a function typed by numba's scalar rules (math, cmath, the numeric builtins, operator,
// numba.cuda's bit and float intrinsics, fp16): the result of a call whose arguments all have
// one type, for a few types and each argument count that types (`int64 → float64, float32 →
// float32`), from the rules typing uses. Empty where none of them types.
std::string sampledResults(const IntrinsicInfo& row) {
  if (row.kind != IntrinsicKind::Function || row.typing == IntrinsicTyping::NotYetTyped ||
      row.typing == IntrinsicTyping::Libdevice || row.typing == IntrinsicTyping::Select)
    return "";
  std::vector<std::pair<int, std::string>> byCount;
  const int upper = row.maxArgs < 0 ? std::max(row.minArgs, 2) : row.maxArgs;
  for (int count = std::max(row.minArgs, 1); count <= upper; ++count) {
    std::string results;
    for (ScalarKind kind : sampleKinds(row)) {
      const std::vector<ScalarKind> args(static_cast<size_t>(count), kind);
      const std::optional<types::NumbaType> result = sema::callResultType(row.id, args);
      if (!result)
        continue;
      results +=
          (results.empty() ? "" : ", ") + std::string(kindName(kind)) + " → " + result->str();
    }
    byCount.push_back({count, results});
  }
  const bool anyTyped = std::any_of(byCount.begin(), byCount.end(),
                                    [](const auto& group) { return !group.second.empty(); });
  if (!anyTyped)
    return "";
  if (byCount.size() == 1 && byCount[0].first == 1)
    return byCount[0].second;
  // Counts the table allows but no sample types are type errors (math.log(x, base), pow's third
  // argument), except for functions of any number of arguments.
  if (row.maxArgs < 0)
    std::erase_if(byCount, [](const auto& group) { return group.second.empty(); });
  std::string out;
  for (const auto& [count, results] : byCount)
    out += (out.empty() ? "" : "; ") + std::to_string(count) +
           (count == 1 ? " argument: " : " arguments: ") +
           (results.empty() ? "a type error" : results);
  return out;
}

std::string typedAs(const IntrinsicInfo& row) {
  if (row.typing == IntrinsicTyping::NotYetTyped)
    return "—";
  if (row.kind == IntrinsicKind::Constant)
    return "float64 " + code(number(row.value));
  const std::string sampled = sampledResults(row);
  return sampled.empty() ? ruleDescription(row.typing) : sampled;
}

// Whether kernels can use the row at all, and how a backend spells it.
std::string backendSupport(const IntrinsicInfo& row, std::string_view spelling) {
  if (row.has(flags::HostOnly))
    return "no: module constants only";
  if (row.typing == IntrinsicTyping::NotYetTyped)
    return "no: not typed yet";
  if (row.kind == IntrinsicKind::Library)
    return "yes, compiled from its pyk source";
  if (spelling.empty())
    return "yes, composed by the emitter";
  return "yes: " + code(spelling);
}

std::string notesOf(const IntrinsicInfo& row) {
  std::vector<std::string> notes;
  if (row.has(flags::Barrier))
    notes.push_back("block barrier");
  if (row.has(flags::WarpCollective))
    notes.push_back("warp collective: the CPU backend runs the kernel on fibers");
  if (row.has(flags::HostOnly))
    notes.push_back("numba 0.56 has no device version: folded where a module constant calls it");
  if (row.typing == IntrinsicTyping::NotYetTyped && !row.has(flags::HostOnly))
    notes.push_back("accepted by name; a call in a kernel is a type error");
  std::string out;
  for (const std::string& n : notes)
    out += (out.empty() ? "" : "; ") + n;
  return out;
}

void generalTable(std::ostream& out, const std::vector<const IntrinsicInfo*>& rows) {
  out << "| name | kind | arguments | typed as | CUDA | CPU | notes |\n";
  out << "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const IntrinsicInfo* row : rows)
    out << "| " << code(writtenName(*row)) << " | " << kindOf(*row) << " | " << argumentCount(*row)
        << " | " << cell(typedAs(*row)) << " | " << cell(backendSupport(*row, row->cuda)) << " | "
        << cell(backendSupport(*row, row->cpu)) << " | " << cell(notesOf(*row)) << " |\n";
}

// A libdevice type code (LibdeviceFunctions.def): f float32, d float64, i int32, l int64, h int16.
std::string libdeviceType(char code) {
  switch (code) {
  case 'f':
    return "float32";
  case 'd':
    return "float64";
  case 'i':
    return "int32";
  case 'l':
    return "int64";
  case 'h':
    return "int16";
  default:
    return "none";
  }
}

// `(float64, float64) → float64`; a function writing outputs returns them after its result.
std::string libdeviceSignatureText(const sema::LibdeviceSignature& s) {
  std::string arguments;
  for (char c : s.values)
    arguments += (arguments.empty() ? "" : ", ") + libdeviceType(c);
  std::vector<std::string> results;
  if (s.result != 'v')
    results.push_back(libdeviceType(s.result));
  for (char c : s.outputs)
    results.push_back(libdeviceType(c));
  std::string result;
  if (results.empty())
    result = "none";
  else if (results.size() == 1)
    result = results[0];
  else {
    for (const std::string& r : results)
      result += (result.empty() ? "(" : ", ") + r;
    result += ")";
  }
  return "(" + arguments + ") → " + result;
}

void libdeviceTable(std::ostream& out, const std::vector<const IntrinsicInfo*>& rows) {
  out << "| name | typed as | CUDA | CPU |\n";
  out << "| --- | --- | --- | --- |\n";
  for (const IntrinsicInfo* row : rows) {
    const sema::LibdeviceSignature* signature = sema::libdeviceSignature(row->id);
    out << "| " << code(writtenName(*row)) << " | "
        << (signature != nullptr ? libdeviceSignatureText(*signature) : "") << " | "
        << cell(backendSupport(*row, row->cuda)) << " | " << cell(backendSupport(*row, row->cpu))
        << " |\n";
  }
}

void vectorTable(std::ostream& out, const std::vector<const IntrinsicInfo*>& rows) {
  out << "| type | also written | elements | members | arguments | CUDA | CPU |\n";
  out << "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const IntrinsicInfo* row : rows) {
    const std::optional<types::NumbaType> type = sema::vectorTypeOf(row->id);
    if (!type)
      continue;
    std::string aliases;
    for (const sema::VectorAlias& alias : sema::vectorAliases())
      if (alias.base == type->scalarKind())
        aliases += (aliases.empty() ? "" : ", ") +
                   code("cuda." + std::string(alias.alias) + std::to_string(type->vectorSize()));
    std::string members;
    for (int i = 0; i < type->vectorSize(); ++i)
      members += (members.empty() ? "" : " ") + code(sema::vectorMemberName(i));
    out << "| " << code(writtenName(*row)) << " | " << aliases << " | " << type->vectorSize()
        << " × " << kindName(type->scalarKind()) << " | " << members << " | " << argumentCount(*row)
        << " | " << cell(backendSupport(*row, row->cuda)) << " | "
        << cell(backendSupport(*row, row->cpu)) << " |\n";
  }
}

// The stdlib's modules written in pyk (LibraryModules.def).
struct LibraryModuleName {
  std::string_view name;
};
constexpr LibraryModuleName kLibraryModules[] = {
#define LIBRARY_MODULE(Id, Name, SourceText) {Name},
#include "sema/catalog/LibraryModules.def"
};

// Where a stdlib module's pyk source lies: `stdlib/numba/cuda/random.pyk`.
std::string sourcePathOf(const LibraryModuleName& module) {
  std::string path(module.name);
  std::replace(path.begin(), path.end(), '.', '/');
  return "stdlib/" + path + ".pyk";
}

// Builtins name resolution accepts that no intrinsic row types.
void untypedBuiltins(std::ostream& out) {
  std::vector<std::string> untyped, exceptions;
  for (const std::string& name : sema::deviceBuiltinNames()) {
    if (sema::intrinsicNamed(name) != Intrinsic::None)
      continue;
    (std::isupper(static_cast<unsigned char>(name[0])) ? exceptions : untyped)
        .push_back(code(name));
  }
  auto joined = [](const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names)
      s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  out << "Accepted by name but not typed yet (a call is reported as a type or code generation "
         "error): "
      << joined(untyped) << ".\n\nException classes, for `raise` (effective with "
      << code("debug=True") << "): " << joined(exceptions) << ".\n";
}

// One section of the generated part: the rows it lists, and how.
struct Section {
  std::string title;
  std::string intro;
  std::function<bool(const IntrinsicInfo&)> holds;
  void (*table)(std::ostream&, const std::vector<const IntrinsicInfo*>&) = generalTable;
  void (*after)(std::ostream&) = nullptr; // what follows the table, if anything
};

bool startsWith(const IntrinsicInfo& row, std::string_view prefix) {
  return row.name.starts_with(prefix);
}

std::vector<Section> sections() {
  using M = sema::IntrinsicModule;
  std::vector<Section> out;
  out.push_back(
      {"numba.cuda",
       "The thread's position, memory, barriers and fences, the grid group, warp "
       "operations and numba.cuda's integer and float intrinsics.",
       [](const IntrinsicInfo& r) {
         return sema::moduleOf(r.id) == M::NumbaCuda && !startsWith(r, "numba.cuda.atomic.") &&
                !startsWith(r, "numba.cuda.fp16.") && !startsWith(r, "numba.cuda.libdevice.") &&
                r.typing != IntrinsicTyping::VectorConstructor && r.kind != IntrinsicKind::Library;
       }});
  out.push_back({"numba.cuda.atomic",
                 "Atomic operations on an element of a global or shared array: "
                 "`cuda.atomic.add(array, index, value)` returns the element's old value; the "
                 "index is an integer or a tuple of them, one per dimension.",
                 [](const IntrinsicInfo& r) { return startsWith(r, "numba.cuda.atomic."); }});
  out.push_back({"numba.cuda.fp16",
                 "numba 0.56's float16 functions; they compute in float16 (operators on float16 "
                 "compute in float32, as numba 0.56 types them).",
                 [](const IntrinsicInfo& r) { return startsWith(r, "numba.cuda.fp16."); }});
  out.push_back(
      {"Vector types",
       "numba.cuda's vector types: `cuda.float32x4(x, y, z, w)` builds one from scalars "
       "and vectors of its base type whose elements add up to its count; the members "
       "read the elements. The C names are numba's aliases of the same types.",
       [](const IntrinsicInfo& r) { return r.typing == IntrinsicTyping::VectorConstructor; },
       vectorTable});
  out.push_back({"numba.cuda.libdevice",
                 "Every function of CUDA's libdevice that numba lists, each typed by its one "
                 "signature (arguments of other numeric types convert to it). On CUDA they are "
                 "libdevice's own `__nv_` functions; the CPU backend computes them in "
                 "`stdlib/cpu/libdevice_*.h` (its transcendental functions are not bit for bit "
                 "libdevice's).",
                 [](const IntrinsicInfo& r) { return startsWith(r, "numba.cuda.libdevice."); },
                 libdeviceTable});
  for (const LibraryModuleName& module : kLibraryModules) {
    const std::string prefix = std::string(module.name) + ".";
    out.push_back({std::string(module.name),
                   "Device functions of pyk's standard library written in pyk (`" +
                       sourcePathOf(module) + "`), compiled with the kernel that calls them.",
                   [prefix](const IntrinsicInfo& r) {
                     return r.kind == IntrinsicKind::Library && startsWith(r, prefix);
                   }});
  }
  out.push_back(
      {"math",
       "numba.cuda's `math`: each function in its argument's precision (float32 stays float32, "
       "integers compute in float64).",
       [](const IntrinsicInfo& r) { return sema::moduleOf(r.id) == M::Math; }});
  out.push_back({"cmath", "`cmath` on complex64 and complex128 as compiled numba computes it.",
                 [](const IntrinsicInfo& r) { return sema::moduleOf(r.id) == M::Cmath; }});
  out.push_back({"numpy",
                 "numpy's constants (float64 values in kernels, as numba freezes them) and the "
                 "scalar functions numba compiles in kernels, of which pyk types `numpy.real` and "
                 "`numpy.imag` so far. Written `np.` after `import numpy as np`.",
                 [](const IntrinsicInfo& r) { return sema::moduleOf(r.id) == M::Numpy; }});
  out.push_back({"operator",
                 "The `operator` module's functions, each typed and computed as the operator it "
                 "is (numba types `a + b` as `operator.add(a, b)`).",
                 [](const IntrinsicInfo& r) { return sema::moduleOf(r.id) == M::Operator; }});
  out.push_back({"Builtins", "Python's builtins device code calls.",
                 [](const IntrinsicInfo& r) { return sema::moduleOf(r.id) == M::Builtin; },
                 generalTable, untypedBuiltins});
  return out;
}

// The rows of each section, every row in the first section that holds it; rows no section holds
// come back last, under "Other", so that none is left out silently.
std::vector<std::pair<Section, std::vector<const IntrinsicInfo*>>> rowsBySection() {
  std::vector<std::pair<Section, std::vector<const IntrinsicInfo*>>> out;
  for (Section& s : sections())
    out.push_back({std::move(s), {}});
  std::vector<const IntrinsicInfo*> other;
  for (const IntrinsicInfo& row : sema::allIntrinsics()) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const auto& section) { return section.first.holds(row); });
    (it != out.end() ? it->second : other).push_back(&row);
  }
  if (!other.empty())
    out.push_back({Section{"Other", "Rows of the intrinsic table no section above lists.",
                           [](const IntrinsicInfo&) { return true; }},
                   other});
  return out;
}

// The scalar type names the catalog knows, by the scalar they stand for.
void typeTable(std::ostream& out) {
  std::map<ScalarKind, std::vector<std::string>> names;
  std::vector<std::string> voidNames;
  for (std::string_view module : {"numba", "numpy"})
    for (const std::string& member : sema::apiMembers(module)) {
      const std::string qualified = std::string(module) + "." + member;
      const std::optional<sema::ApiEntity> entity = sema::lookupApi(qualified);
      if (!entity || entity->kind != sema::ApiKind::Type)
        continue;
      if (entity->type.isScalar())
        names[entity->type.scalarKind()].push_back(code(qualified));
      else
        voidNames.push_back(code(qualified));
    }
  out << "| type | names |\n| --- | --- |\n";
  for (const auto& [kind, spelled] : names) {
    std::string joined;
    for (const std::string& n : spelled)
      joined += (joined.empty() ? "" : ", ") + n;
    out << "| " << kindName(kind) << " | " << joined << " |\n";
  }
  std::string joined;
  for (const std::string& n : voidNames)
    joined += (joined.empty() ? "" : ", ") + n;
  if (!joined.empty())
    out << "| none (a kernel's return type) | " << joined << " |\n";
}

// Every name of a cataloged module, recursively, with what the catalog says it is.
void collectApi(std::string_view module, std::vector<sema::ApiEntity>& out) {
  for (const std::string& member : sema::apiMembers(module)) {
    const std::string qualified = std::string(module) + "." + member;
    const std::optional<sema::ApiEntity> entity = sema::lookupApi(qualified);
    if (!entity)
      continue;
    out.push_back(*entity);
    if (entity->kind == sema::ApiKind::Module)
      collectApi(qualified, out);
  }
}

void hostNames(std::ostream& out) {
  std::vector<sema::ApiEntity> all;
  for (std::string_view root : {"numba", "math", "cmath", "numpy", "operator"})
    collectApi(root, all);
  std::map<std::string, std::vector<std::string>> byModule;
  std::vector<std::string> typeConstructors;
  for (const sema::ApiEntity& e : all) {
    const std::string module = e.qualifiedName.substr(0, e.qualifiedName.rfind('.'));
    const std::string member = e.qualifiedName.substr(module.size() + 1);
    if (e.kind == sema::ApiKind::Decorator)
      byModule[module].push_back(code(member) + " (decorator)");
    else if (e.kind == sema::ApiKind::HostFunction)
      byModule[module].push_back(code(member));
    else if (e.kind == sema::ApiKind::TypeConstructor)
      typeConstructors.push_back(code(e.qualifiedName));
  }
  std::string joined;
  for (const std::string& n : typeConstructors)
    joined += (joined.empty() ? "" : ", ") + n;
  out << "Type constructors for signatures and module-level types: " << joined << ".\n\n";
  out << "Decorators, and the host API pyk recognises so that a numba script can be fed as it "
         "is: a kernel that uses one of these is an error saying it runs on the host "
         "(`numpy.array`, `numpy.zeros` and their kin fold where a module-level constant is "
         "built with them).\n\n";
  out << "| module | host-side names |\n| --- | --- |\n";
  for (const auto& [module, members] : byModule) {
    std::string list;
    for (const std::string& m : members)
      list += (list.empty() ? "" : ", ") + m;
    out << "| " << code(module) << " | " << list << " |\n";
  }
}

std::string anchor(std::string_view title) {
  std::string out;
  for (char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (c == ' ' || c == '-' || c == '_')
      out += c == '_' ? '_' : '-';
  }
  return out;
}

void legend(std::ostream& out, size_t rowCount) {
  out << "This part is generated by `pyk_language_reference` (compiler/tools/LanguageReference.cpp)"
         " from the tables the compiler reads: every row of `compiler/sema/catalog/Intrinsics.def` "
         "("
      << rowCount
      << " rows), the vector types of `VectorTypes.def`, the stdlib modules of "
         "`LibraryModules.def`, the result types of the typing rules (`TypeCallRules.cpp`) and "
         "the name catalog (`ModuleApiCatalog`).\n\n";
  out << "- **name**: as written after `from numba import cuda` (`cuda.syncthreads`). "
         "`numba.cuda.syncthreads`, and a name bound by any import of the same object "
         "(`from numba.cuda import syncthreads`), are the same intrinsic. `numpy.` names are "
         "written with whatever name numpy is imported as (`np.pi` after `import numpy as np`).\n";
  out << "- **kind**: a *value* is read (`cuda.threadIdx.x`), a *constant* folds to its value, "
         "a *function* is called, a *device function* is a pyk function of the standard "
         "library, compiled with the kernel.\n";
  out << "- **typed as**: for a function numba types by scalar cases, the result of a call "
         "whose arguments all have the type on the left (`int64 → float64`), for each argument "
         "count that types, as pyk's typing rules compute it; otherwise the rule in words.\n";
  out << "- **CUDA**, **CPU**: *yes* with the C++ the backend emits, or *composed by the "
         "emitter* where it writes the code itself (`cuda.grid`, `cuda.shared.array`); *no: not "
         "typed yet* for names pyk resolves but cannot compile yet; *no: module constants only* "
         "for functions numba 0.56 has no device version of.\n\n";
}

void generatedPart(std::ostream& out) {
  const auto grouped = rowsBySection();
  out << "## Names kernels may use\n\n";
  legend(out, sema::allIntrinsics().size());
  out << "Sections:";
  bool first = true;
  for (const auto& [section, rows] : grouped) {
    out << (first ? " " : ", ") << "[" << section.title << "](#" << anchor(section.title) << ")";
    first = false;
  }
  out << ", [Types](#types), [Host-side names](#host-side-names).\n\n";
  for (const auto& [section, rows] : grouped) {
    out << "### " << section.title << "\n\n" << section.intro << "\n\n";
    section.table(out, rows);
    if (section.after != nullptr) {
      out << "\n";
      section.after(out);
    }
    out << "\n";
  }
  out << "### Types\n\n"
         "Scalar type objects: casts when called (`float32(x)`, `np.int32(x)`), dtypes in "
         "`cuda.shared.array(n, float32)` and signatures. `numba.types.X` and "
         "`numba.core.types.X` are the same names as `numba.X` (`"
      << sema::canonicalApiName("numba.core.types.float32") << "`).\n\n";
  typeTable(out);
  out << "\n### Host-side names\n\n";
  hostNames(out);
}

std::string page() {
  std::ostringstream out;
  out << "<!-- docs/LANGUAGE.md is generated by pyk_language_reference "
         "(compiler/tools/LanguageReference.cpp): do not edit it. Edit "
         "compiler/tools/language_statements.md or the compiler's tables, then run `"
      << kUpdateCommand << "`. -->\n\n";
  out << languageStatementsText();
  if (!languageStatementsText().ends_with("\n"))
    out << "\n";
  out << "\n";
  generatedPart(out);
  return out.str();
}

} // namespace

} // namespace pyk::tools

int main(int argc, char** argv) {
  return pyk::base::runGeneratedPageTool(argc, argv, "pyk_language_reference",
                                         "what the compiler's tables give",
                                         pyk::tools::kUpdateCommand, pyk::tools::page());
}
