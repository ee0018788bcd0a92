// CompilerService: a module through the front end once, its functions as the runtime sees them,
// and their specializations compiled under the module's lock.
#include "jit/CompilerService.h"

#include <complex>
#include <cstring>
#include <functional>
#include <mutex>
#include <sstream>

#include "base/Error.h"
#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "jit/CompileSpecialization.h"
#include "sema/catalog/LibraryModule.h"
#include "sema/resolve/FrontEnd.h"
#include "sema/resolve/SignatureParser.h"
#include "sema/resolve/UserModules.h"
#include "sema/typing/FunctionTyper.h"
#include "sema/typing/SignatureChoice.h"

namespace pyk::jit {

struct SourceModule::State {
  State(SourceFile f, ImportOptions i) : file(std::move(f)), imports(std::move(i)) {}
  SourceFile file;
  ImportOptions imports;
  sema::FrontEndResult front;
  // The resolved module is shared by the threads that launch its kernels: typing and emission
  // run one at a time (compileSpecialization holds it; the backend's compile runs outside it).
  mutable std::mutex compileMutex;
  std::vector<FunctionInfo> functions; // functions[i] describes front.resolved.functions[i]
  std::string warnings;                // the front end's, rendered
};

namespace {

// The diagnostics as one pyk::Error, as pykc would print them (without colour).
[[noreturn]] void throwDiagnostics(const DiagnosticEngine& diags) {
  std::ostringstream out;
  diags.render(out, false);
  throw Error(ErrorKind::Compile, out.str());
}

FunctionInfo describe(const sema::CompiledFunction& f) {
  FunctionInfo info;
  info.name = f.name;
  info.qualifiedName = f.qualifiedName;
  info.kind = f.kind;
  info.signatures = f.signatures;
  info.parameterNames = f.scope.params;
  info.gufuncLayout = f.layout;
  info.target = f.options.target;
  info.shadowed = f.shadowed;
  info.nested = f.nested();
  if (!f.options.launchBounds.empty())
    info.maxThreadsPerBlock = f.options.launchBounds[0];
  return info;
}

} // namespace

SourceModule::SourceModule(std::unique_ptr<State> state) : state_(std::move(state)) {
  DiagnosticEngine diags(&state_->file);
  sema::ImportSearch search;
  search.dirs = state_->imports.includeDirs;
  search.links = state_->imports.links;
  for (const ImportOptions::Embedded& e : state_->imports.embedded)
    search.embedded.push_back({e.module, e.path, e.text});
  state_->front = sema::runFrontEnd(state_->file, diags, sema::FrontEndStop::Resolved, &search);
  if (diags.hasErrors())
    throwDiagnostics(diags);
  if (!diags.diagnostics().empty()) {
    std::ostringstream out;
    diags.render(out, false);
    state_->warnings = out.str();
  }
  for (const sema::CompiledFunction& f : state_->front.resolved.functions)
    state_->functions.push_back(describe(f));
}

SourceModule::~SourceModule() = default;

std::shared_ptr<const SourceModule> SourceModule::load(const std::filesystem::path& path,
                                                       ImportOptions imports) {
  std::string readError;
  std::optional<SourceFile> file = SourceFile::read(path.string(), readError);
  if (!file)
    throw Error(ErrorKind::File, path.string() + ": " + readError);
  return std::shared_ptr<const SourceModule>(
      new SourceModule(std::make_unique<State>(std::move(*file), std::move(imports))));
}

std::shared_ptr<const SourceModule> SourceModule::fromText(std::string text, std::string name,
                                                           ImportOptions imports) {
  return std::shared_ptr<const SourceModule>(new SourceModule(
      std::make_unique<State>(SourceFile(std::move(name), std::move(text)), std::move(imports))));
}

std::vector<ImportOptions::Embedded> SourceModule::importedSources() const {
  std::vector<ImportOptions::Embedded> out;
  for (const sema::ImportSearch::Embedded& e : sema::importedSources(state_->front.resolved))
    out.push_back({e.module, e.path, e.text});
  return out;
}

const std::string& SourceModule::path() const {
  return state_->file.path();
}

const std::string& SourceModule::warnings() const {
  return state_->warnings;
}

const std::vector<FunctionInfo>& SourceModule::functions() const {
  return state_->functions;
}

const FunctionInfo* SourceModule::function(std::string_view name) const {
  const sema::CompiledFunction* found = state_->front.resolved.function(name);
  if (found == nullptr)
    return nullptr;
  return &state_->functions[static_cast<std::size_t>(found -
                                                     state_->front.resolved.functions.data())];
}

SourceModule::EnumMemberArgument SourceModule::enumMember(std::string_view className,
                                                          std::string_view member) const {
  const std::string what = "`" + std::string(className) + "." + std::string(member) + "`";
  const sema::ModuleConstant* cls = state_->front.resolved.symbols.constantNamed(className);
  if (cls == nullptr || cls->value.kind != sema::ConstantValue::Kind::EnumClass)
    throw Error(ErrorKind::InvalidArgument, path() + " has no Enum or IntEnum class `" +
                                                std::string(className) + "` for " + what);
  const sema::ConstantValue* value = cls->value.enumMember(std::string(member));
  if (value == nullptr)
    throw Error(ErrorKind::InvalidArgument, "the Enum class `" + std::string(className) + "` of " +
                                                path() + " has no member `" + std::string(member) +
                                                "`");
  const std::optional<types::NumbaType> valueType = sema::typeOfConstant(*value);
  // A number's bytes as its scalar type holds them; a tuple's element by element.
  std::function<bool(const sema::ConstantValue&, const types::NumbaType&, EnumMemberArgument&)>
      fill = [&](const sema::ConstantValue& v, const types::NumbaType& t, EnumMemberArgument& out) {
        out.type = t;
        if (t.isTuple()) {
          for (size_t i = 0; i < t.elements().size(); ++i)
            if (!fill(v.elements[i], t.elements()[i], out.elements.emplace_back()))
              return false;
          return true;
        }
        if (!t.isScalar() || t.scalarKind() == types::ScalarKind::Float16)
          return false;
        auto put = [&out](auto x) { std::memcpy(out.value, &x, sizeof x); };
        switch (t.scalarKind()) {
        case types::ScalarKind::Boolean:
          put(v.kind == sema::ConstantValue::Kind::Bool ? v.boolValue : v.intValue != 0);
          break;
        case types::ScalarKind::Float32:
          put(static_cast<float>(v.floatValue));
          break;
        case types::ScalarKind::Float64:
          put(v.floatValue);
          break;
        case types::ScalarKind::Complex64:
          put(std::complex<float>(v.complexValue));
          break;
        case types::ScalarKind::Complex128:
          put(v.complexValue);
          break;
        default: // an integer: its low bytes (little-endian) are the value in its own width
          if (t.scalarKind() == types::ScalarKind::UInt64)
            put(static_cast<uint64_t>(v.intValue));
          else
            put(static_cast<int64_t>(v.intValue));
          break;
        }
        return true;
      };
  EnumMemberArgument out;
  if (!valueType || !fill(*value, *valueType, out))
    throw Error(ErrorKind::InvalidArgument,
                what + " is valued " + value->typeDescription() +
                    ": pyk takes Enum members valued by numbers (float16 excepted) or tuples of "
                    "them as kernel arguments, not yet others");
  out.type = types::NumbaType::enumMember(std::string(className), *valueType,
                                          /*intEnum=*/cls->value.boolValue);
  return out;
}

CompiledKernel SourceModule::compile(const FunctionInfo& function,
                                     const std::vector<types::NumbaType>& params,
                                     const std::optional<types::NumbaType>& returnType,
                                     const Target& target, const JitSettings& settings,
                                     bool rebuild) const {
  const std::size_t index = static_cast<std::size_t>(&function - state_->functions.data());
  DiagnosticEngine diags(&state_->file);
  const SpecializationRequest request{.module = state_->front.resolved,
                                      .file = state_->file,
                                      .function = state_->front.resolved.functions.at(index),
                                      .params = params,
                                      .returnType = returnType,
                                      .target = target,
                                      .diags = diags,
                                      .stage = Stage::Compiled,
                                      .settings = settings,
                                      .set = nullptr,
                                      .frontEndMutex = &state_->compileMutex,
                                      .rebuild = rebuild};
  std::optional<CompiledSpecialization> compiled = compileSpecialization(request);
  if (!compiled)
    throwDiagnostics(diags);
  return std::move(static_cast<CompiledKernel&>(*compiled));
}

StdlibSource numbaCudaRandomSource() {
  return {sema::libraryPath(sema::Library::NumbaCudaRandom),
          sema::librarySourceText(sema::Library::NumbaCudaRandom)};
}

std::optional<types::FunctionSignature> parseSignature(std::string_view text, std::string& error) {
  DiagnosticEngine diags;
  std::optional<types::FunctionSignature> parsed =
      sema::parseSignature(text, sema::StringLiteralLocation(SourceRange(), text, nullptr), diags);
  if (!parsed) {
    std::ostringstream out;
    diags.render(out, false);
    error = out.str();
  }
  return parsed;
}

std::optional<std::size_t> chooseSignature(std::span<const types::FunctionSignature> signatures,
                                           std::span<const types::NumbaType> args,
                                           bool (*converts)(const types::NumbaType& arg,
                                                            const types::NumbaType& param)) {
  return sema::chooseSignature(signatures, args, converts);
}

} // namespace pyk::jit
