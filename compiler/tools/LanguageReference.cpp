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
// How one row is described is IntrinsicRowText's; this file orders the page's sections and
// tables.
#include <algorithm>
#include <cctype>
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
#include "tools/IntrinsicRowText.h"
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
      << joined(untyped) << ".\n\nException classes, for `raise` (without " << code("debug=True")
      << " the raising thread ends): " << joined(exceptions) << ".\n";
}

// One section of the generated part: the rows it lists, and how.
struct Section {
  std::string title;
  std::string intro;
  std::function<bool(const IntrinsicInfo&)> holds;
  void (*table)(std::ostream&, const std::vector<const IntrinsicInfo*>&) = generalTable;
  void (*after)(std::ostream&) = nullptr; // what follows the table, if anything
};

// The sections of numba.cuda's submodules, by the table's own columns.
bool isAtomic(const IntrinsicInfo& row) {
  return sema::familyOf(row.typing) == sema::IntrinsicFamily::Atomic;
}
bool isFp16(const IntrinsicInfo& row) {
  return row.typing == IntrinsicTyping::Half || row.typing == IntrinsicTyping::HalfPredicate;
}
bool isLibdevice(const IntrinsicInfo& row) {
  return row.typing == IntrinsicTyping::Libdevice;
}

std::vector<Section> sections() {
  using M = sema::IntrinsicModule;
  std::vector<Section> out;
  out.push_back({"numba.cuda",
                 "The thread's position, memory, barriers and fences, the grid group, warp "
                 "operations and numba.cuda's integer and float intrinsics.",
                 [](const IntrinsicInfo& r) {
                   return sema::moduleOf(r.id) == M::NumbaCuda && !isAtomic(r) && !isFp16(r) &&
                          !isLibdevice(r) && r.typing != IntrinsicTyping::VectorConstructor &&
                          r.kind != IntrinsicKind::Library;
                 }});
  out.push_back({"numba.cuda.atomic",
                 "Atomic operations on an element of a global or shared array: "
                 "`cuda.atomic.add(array, index, value)` returns the element's old value; the "
                 "index is an integer or a tuple of them, one per dimension.",
                 isAtomic});
  out.push_back({"numba.cuda.fp16",
                 "numba 0.56's float16 functions; they compute in float16 (operators on float16 "
                 "compute in float32, as numba 0.56 types them).",
                 isFp16});
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
                 isLibdevice, libdeviceTable});
  for (const LibraryModuleName& module : kLibraryModules) {
    const std::string prefix = std::string(module.name) + ".";
    out.push_back({std::string(module.name),
                   "Device functions of pyk's standard library written in pyk (`" +
                       sourcePathOf(module) + "`), compiled with the kernel that calls them.",
                   [prefix](const IntrinsicInfo& r) {
                     return r.kind == IntrinsicKind::Library && r.name.starts_with(prefix);
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
