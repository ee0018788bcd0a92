// AotModuleWriter: see AotModuleWriter.h. The CPU units of one module share a translation unit:
// each goes into a namespace of its own (their helper functions may share names) and its two
// extern "C" entry points are renamed after the module and the unit's number, so that modules
// and specializations never clash when linked into one program.
#include "aot/AotModuleWriter.h"
#include "base/GeneratedUnit.h"

#include <set>
#include <sstream>

#include "base/Version.h"
#include "cpu/pyk_cpu_support.h"

namespace pyk::aot {

namespace {

using types::NumbaType;
using types::ScalarKind;

std::string cppScalar(ScalarKind k) {
  switch (k) {
  case ScalarKind::Boolean:
    return "bool";
  case ScalarKind::Int8:
    return "std::int8_t";
  case ScalarKind::Int16:
    return "std::int16_t";
  case ScalarKind::Int32:
    return "std::int32_t";
  case ScalarKind::Int64:
    return "std::int64_t";
  case ScalarKind::UInt8:
    return "std::uint8_t";
  case ScalarKind::UInt16:
    return "std::uint16_t";
  case ScalarKind::UInt32:
    return "std::uint32_t";
  case ScalarKind::UInt64:
    return "std::uint64_t";
  case ScalarKind::Float16:
    return "pyk::float16";
  case ScalarKind::Float32:
    return "float";
  case ScalarKind::Float64:
    return "double";
  case ScalarKind::Complex64:
    return "std::complex<float>";
  case ScalarKind::Complex128:
    return "std::complex<double>";
  }
  return "double";
}

// The C++ type of one value of a scalar, datetime64 or timedelta64 type
// (pyk::datetime64<pyk::time_unit::D>).
std::string cppValue(const NumbaType& t) {
  if (t.isDatetimeLike()) {
    const std::string unit = types::datetimeUnitName(t.datetimeUnit());
    return std::string(t.isDatetime() ? "pyk::datetime64" : "pyk::timedelta64") +
           "<pyk::time_unit::" + (unit.empty() ? "generic" : unit) + ">";
  }
  return cppScalar(t.scalarKind());
}

// The C++ type a launch function takes for a parameter (by value for scalars, by const
// reference otherwise); `inTuple` is for a std::tuple's element type.
std::string cppParameter(const NumbaType& t, bool inTuple = false) {
  if (t.isScalar() || t.isDatetimeLike())
    return cppValue(t);
  if (t.isArray() && !t.isRecordArray() && !t.isCharSeqArray()) {
    const std::string a =
        "pyk::DeviceArray<" + cppValue(t.elementType()) + ", " + std::to_string(t.ndim()) + ">";
    return inTuple ? a : "const " + a + "&";
  }
  if (t.isArray()) // a record array, an array of bytes or unicode items (their length is the
                   // array's)
    return inTuple ? "pyk::AnyDeviceArray" : "const pyk::AnyDeviceArray&";
  if (t.isTuple() && !t.isNamedTuple()) {
    std::string out = "std::tuple<";
    for (size_t i = 0; i < t.elements().size(); ++i)
      out += (i ? ", " : "") + cppParameter(t.elements()[i], true);
    out += ">";
    return inTuple ? out : "const " + out + "&";
  }
  // A record (pyk::KernelArgument::record) or a named tuple (KernelArgument::tuple_of).
  return inTuple ? "pyk::KernelArgument" : "const pyk::KernelArgument&";
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out + "\"";
}

// Bytes as an array initialiser, 24 a line.
std::string byteArray(const std::string& bytes) {
  std::string out;
  char hex[8];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(hex, sizeof hex, "0x%02x,", static_cast<unsigned char>(bytes[i]));
    out += hex;
    if (i % 24 == 23)
      out += '\n';
  }
  return out;
}

// The source text as raw-string pieces under compilers' literal limits, with a delimiter it lacks.
std::string rawText(const std::string& text) {
  std::string delimiter = "pyk";
  while (text.find(")" + delimiter + "\"") != std::string::npos)
    delimiter += "_";
  std::string out;
  for (size_t at = 0; at < text.size(); at += 8000)
    out += "    R\"" + delimiter + "(" + text.substr(at, 8000) + ")" + delimiter + "\"\n";
  return out.empty() ? "    \"\"\n" : out;
}

std::string entryName(const AotModule& m, size_t unit, const char* which) {
  return "pyk_aot_" + m.name + "_" + std::to_string(unit) + "__" + which;
}

// C++'s keywords and alternative tokens, which a Python name may be (`new`, `delete`, `int`).
bool isCppKeyword(const std::string& name) {
  static const std::set<std::string> keywords = {"alignas",
                                                 "alignof",
                                                 "and_eq",
                                                 "asm",
                                                 "auto",
                                                 "bitand",
                                                 "bitor",
                                                 "bool",
                                                 "case",
                                                 "catch",
                                                 "char",
                                                 "char8_t",
                                                 "char16_t",
                                                 "char32_t",
                                                 "compl",
                                                 "concept",
                                                 "const",
                                                 "consteval",
                                                 "constexpr",
                                                 "constinit",
                                                 "const_cast",
                                                 "co_await",
                                                 "co_return",
                                                 "co_yield",
                                                 "decltype",
                                                 "default",
                                                 "delete",
                                                 "do",
                                                 "double",
                                                 "dynamic_cast",
                                                 "enum",
                                                 "explicit",
                                                 "export",
                                                 "extern",
                                                 "float",
                                                 "friend",
                                                 "goto",
                                                 "inline",
                                                 "int",
                                                 "long",
                                                 "mutable",
                                                 "namespace",
                                                 "new",
                                                 "noexcept",
                                                 "not_eq",
                                                 "nullptr",
                                                 "operator",
                                                 "or_eq",
                                                 "private",
                                                 "protected",
                                                 "public",
                                                 "register",
                                                 "reinterpret_cast",
                                                 "requires",
                                                 "short",
                                                 "signed",
                                                 "sizeof",
                                                 "static",
                                                 "static_assert",
                                                 "static_cast",
                                                 "struct",
                                                 "switch",
                                                 "template",
                                                 "this",
                                                 "thread_local",
                                                 "throw",
                                                 "typedef",
                                                 "typeid",
                                                 "typename",
                                                 "union",
                                                 "unsigned",
                                                 "using",
                                                 "virtual",
                                                 "void",
                                                 "volatile",
                                                 "wchar_t",
                                                 "xor",
                                                 "xor_eq",
                                                 "and",
                                                 "or",
                                                 "not",
                                                 "true",
                                                 "false",
                                                 "main"};
  return keywords.count(name) != 0;
}

// A kernel's parameter names as the launch functions' C++ parameters: a C++ keyword, or a name
// the function already uses (grid, block, stream, shared_bytes, kernel), gets a `_` after it.
std::vector<std::string> parameterNames(const sema::CompiledFunction& f) {
  std::vector<std::string> out;
  for (const std::string& p : f.scope.params) {
    const bool taken = p == "grid" || p == "block" || p == "stream" || p == "shared_bytes" ||
                       p == "kernel" || isCppKeyword(p);
    out.push_back(taken ? p + "_" : p);
  }
  return out;
}

} // namespace

// A kernel's launch function name: its own, with a `_` after a C++ keyword or `module`.
std::string launchFunctionName(const std::string& kernel) {
  return isCppKeyword(kernel) || kernel == "module" ? kernel + "_" : kernel;
}

// A module's namespace: the file's stem, with a `_` after a C++ keyword, `pyk` or `std`.
std::string moduleNamespace(const std::string& stem) {
  return isCppKeyword(stem) || stem == "pyk" || stem == "std" ? stem + "_" : stem;
}

namespace {} // namespace

std::string parameterSpelling(const std::vector<NumbaType>& params) {
  return types::FunctionSignature{std::nullopt, params}.spelling();
}

std::string headerText(const AotModule& m) {
  std::ostringstream out;
  out << "// Generated by pykc build from " << m.sourcePath << ". Do not edit.\n"
      << "// The kernels of " << m.sourcePath << " built ahead of time: one launch function per\n"
      << "// signature, which runs the code built with the program (no compiler at run time).\n"
      << "#pragma once\n\n#include <complex>\n#include <cstdint>\n#include <tuple>\n\n"
      << "#include <pyk/aot.hpp>\n#include <pyk/pyk.hpp>\n\nnamespace " << moduleNamespace(m.name)
      << " {\n\n"
      << "// The module: every kernel by name, for any signature (one not built ahead is compiled\n"
      << "// by the JIT where one is available).\nconst pyk::Module& module();\n";
  for (const AotSpecialization& s : m.specializations) {
    const sema::CompiledFunction& f = *s.function;
    if (f.nested())
      continue; // a kernel made inside a function: module()["make.<locals>.k"]
    const std::vector<std::string> names = parameterNames(f);
    std::string params, args;
    for (size_t i = 0; i < s.signature.params.size(); ++i) {
      params += ", " + cppParameter(s.signature.params[i]) + " " + names[i];
      args += (i ? ", " : "") + names[i];
    }
    out << "\n// " << f.name << parameterSpelling(s.signature.params) << "\n"
        << "void " << launchFunctionName(f.name)
        << "(pyk::Dim3 grid, pyk::Dim3 block, const pyk::Stream& stream" << params
        << ", std::size_t shared_bytes = 0);\n"
        << "inline void " << launchFunctionName(f.name) << "(pyk::Dim3 grid, pyk::Dim3 block"
        << params << ") {\n  " << launchFunctionName(f.name) << "(grid, block, pyk::Stream()"
        << (args.empty() ? "" : ", " + args) << ");\n}\n";
  }
  out << "\n} // namespace " << moduleNamespace(m.name) << "\n";
  return out.str();
}

std::string imageText(const AotModule& m) {
  std::ostringstream out;
  out << "// Generated by pykc build from " << m.sourcePath << ". Do not edit.\n"
      << "// The module image the runtime loads (pyk/aot.hpp).\n#include \"" << m.name
      << ".hpp\"\n\nextern \"C\" {\n";
  for (size_t i = 0; i < m.specializations.size(); ++i) {
    const AotSpecialization& s = m.specializations[i];
    if (!s.hasCpu)
      continue;
    if (!s.cpu.blockEntry.empty())
      out << "void " << entryName(m, i, "block") << "(pyk::cpu::Block&, void**);\n";
    out << "void " << entryName(m, i, "thread") << "(pyk::cpu::Thread&, void**);\n";
  }
  out << "}\n\nnamespace " << moduleNamespace(m.name)
      << " {\n\nnamespace {\n\nconstexpr char kSource[] =\n"
      << rawText(m.source) << "    ;\n";
  size_t cudaCount = 0, cpuCount = 0;
  for (size_t i = 0; i < m.specializations.size(); ++i)
    for (int v = 0; v < 2; ++v)
      if (!m.specializations[i].fatbin[v].empty()) {
        out << "\nalignas(8) constexpr unsigned char kFatbin" << i << "_" << v << "[] = {\n"
            << byteArray(m.specializations[i].fatbin[v]) << "};\n";
        ++cudaCount;
      }
  out << "\nconstexpr pyk::aot::CpuKernel kCpu[] = {\n";
  for (size_t i = 0; i < m.specializations.size(); ++i) {
    const AotSpecialization& s = m.specializations[i];
    if (!s.hasCpu)
      continue;
    ++cpuCount;
    const std::string mode = std::string(base::nameOf(s.cpu.mode)) +
                             (s.cpu.fiberReason.empty() ? "" : " (" + s.cpu.fiberReason + ")");
    out << "    {" << quoted(s.function->qualifiedName) << ", "
        << quoted(parameterSpelling(s.signature.params)) << ", " << quoted(mode) << ", "
        << (s.cpu.blockEntry.empty() ? "nullptr" : "&" + entryName(m, i, "block")) << ", &"
        << entryName(m, i, "thread") << ", " << s.cpu.staticSharedBytes << ", "
        << (s.cpu.cooperative ? "true" : "false") << "},\n";
  }
  if (cpuCount == 0)
    out << "    {\"\", \"\", \"\", nullptr, nullptr, 0, false},\n";
  out << "};\n\nconstexpr pyk::aot::CudaKernel kCuda[] = {\n";
  for (size_t i = 0; i < m.specializations.size(); ++i) {
    const AotSpecialization& s = m.specializations[i];
    for (int v = 0; v < 2; ++v)
      if (!s.fatbin[v].empty())
        out << "    {" << quoted(s.function->qualifiedName) << ", "
            << quoted(parameterSpelling(s.signature.params)) << ", " << (v ? "true" : "false")
            << ", kFatbin" << i << "_" << v << ", sizeof kFatbin" << i << "_" << v << ", "
            << quoted(s.cudaEntry) << ", " << quoted(s.cudaTargets) << ", "
            << (s.cooperative ? "true" : "false") << "},\n";
  }
  if (cudaCount == 0)
    out << "    {\"\", \"\", false, nullptr, 0, \"\", \"\", false},\n";
  out << "};\n";
  // The modules of the user's it imports, as pykc build read them.
  for (size_t i = 0; i < m.imports.size(); ++i)
    out << "\nconstexpr char kImportSource" << i << "[] =\n"
        << rawText(m.imports[i].text) << "    ;\n";
  out << "\nconstexpr pyk::aot::ImportedSource kImports[] = {\n";
  for (size_t i = 0; i < m.imports.size(); ++i)
    out << "    {" << quoted(m.imports[i].module) << ", " << quoted(m.imports[i].path)
        << ", std::string_view(kImportSource" << i << ", sizeof kImportSource" << i << " - 1)},\n";
  if (m.imports.empty())
    out << "    {\"\", \"\", std::string_view()},\n";
  out << "};\n\nconstexpr pyk::aot::ModuleImage kImage{" << quoted(PYK_VERSION_STRING) << ", "
      << cpu::kAbiVersion << ", " << quoted(m.sourcePath)
      << ", std::string_view(kSource, sizeof kSource - 1), "
      << "std::span<const pyk::aot::CpuKernel>(kCpu, " << cpuCount << "), "
      << "std::span<const pyk::aot::CudaKernel>(kCuda, " << cudaCount << "), "
      << "std::span<const pyk::aot::ImportedSource>(kImports, " << m.imports.size() << ")};\n\n"
      << "[[maybe_unused]] const bool kRegistered = pyk::aot::register_image(kImage);\n\n"
      << "} // namespace\n\nconst pyk::Module& module() {\n"
      << "  static const pyk::Module m = pyk::load(kImage);\n  return m;\n}\n";
  for (const AotSpecialization& s : m.specializations) {
    const sema::CompiledFunction& f = *s.function;
    if (f.nested())
      continue;
    const std::vector<std::string> names = parameterNames(f);
    std::string params, args;
    for (size_t i = 0; i < s.signature.params.size(); ++i) {
      params += ", " + cppParameter(s.signature.params[i]) + " " + names[i];
      args += (i ? ", " : "") + names[i];
    }
    out << "\nvoid " << launchFunctionName(f.name)
        << "(pyk::Dim3 grid, pyk::Dim3 block, const pyk::Stream& stream" << params
        << ", std::size_t shared_bytes) {\n"
        << "  static const pyk::Kernel kernel = module()[" << quoted(f.name) << "];\n"
        << "  kernel.launch(grid, block, stream, shared_bytes)(" << args << ");\n}\n";
  }
  out << "\n} // namespace " << moduleNamespace(m.name) << "\n";
  return out.str();
}

std::string cpuUnitsText(const AotModule& m) {
  std::ostringstream out;
  out << "// Generated by pykc build from " << m.sourcePath << ". Do not edit.\n"
      << "// The CPU backend's code of each specialization built ahead, in a namespace each.\n"
      << "#include \"pyk_cpu_support.h\"\n";
  for (size_t i = 0; i < m.specializations.size(); ++i) {
    const AotSpecialization& s = m.specializations[i];
    if (!s.hasCpu)
      continue;
    std::string body = s.cpu.source;
    // The unit's own include of the support header is already above.
    const std::string include = "#include \"pyk_cpu_support.h\"\n";
    if (const size_t at = body.find(include); at != std::string::npos)
      body.erase(at, include.size());
    auto rename = [&](const std::string& from, const std::string& to) {
      for (size_t at = body.find(from + "("); at != std::string::npos;
           at = body.find(from + "(", at + to.size()))
        body.replace(at, from.size(), to);
    };
    if (!s.cpu.blockEntry.empty())
      rename(s.cpu.blockEntry, entryName(m, i, "block"));
    rename(s.cpu.threadEntry, entryName(m, i, "thread"));
    // The CUDA C++ it links at file scope, where every unit's calls find it (each file's text is
    // guarded to appear once).
    const size_t linkedBegin = body.find(base::kLinkedSourcesBegin);
    const size_t linkedEnd = body.find(base::kLinkedSourcesEnd);
    if (linkedBegin != std::string::npos && linkedEnd != std::string::npos) {
      const size_t stop = linkedEnd + std::string(base::kLinkedSourcesEnd).size();
      out << "\n" << body.substr(linkedBegin, stop - linkedBegin);
      body.erase(linkedBegin, stop - linkedBegin);
    }
    out << "\n// " << s.function->qualifiedName << parameterSpelling(s.signature.params)
        << "\nnamespace pyk_aot_unit_" << i << " {\n"
        << body << "} // namespace pyk_aot_unit_" << i << "\n";
  }
  return out.str();
}

} // namespace pyk::aot
