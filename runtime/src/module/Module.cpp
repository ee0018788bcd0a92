// Module: pyk::load and module["name"]: the front end run once per module, its errors thrown as
// the located diagnostics pykc prints.
#include <sstream>

#include "diag/DiagnosticEngine.h"
#include "module/BackgroundCompiles.h"
#include "module/ModuleState.h"
#include "sema/ModuleResolver.h"

namespace pyk {

namespace {

// Parses and resolves the module's source; its errors become one pyk::Error.
void runFrontEnd(detail::ModuleState& state) {
  DiagnosticEngine diags(&state.file);
  runWithLargeStack([&] {
    state.parsed = parseModule(state.file, diags);
    if (state.parsed.module != nullptr)
      state.resolved = sema::resolveModule(*state.parsed.module, diags);
  });
  if (diags.hasErrors()) {
    std::ostringstream out;
    diags.render(out, false);
    throw Error(ErrorKind::Compile, out.str());
  }
}

} // namespace

Module load(const std::filesystem::path& path) {
  std::string readError;
  std::optional<SourceFile> file = SourceFile::read(path.string(), readError);
  if (!file)
    throw Error(ErrorKind::File, path.string() + ": " + readError);
  auto state = std::make_shared<detail::ModuleState>(std::move(*file));
  runFrontEnd(*state);
  return Module(std::move(state));
}

Module loads(const std::string& source, const std::string& name) {
  auto state = std::make_shared<detail::ModuleState>(SourceFile(name, source));
  runFrontEnd(*state);
  return Module(std::move(state));
}

Kernel Module::operator[](const std::string& name) const {
  // By its name, or (a kernel defined inside a function) its qualified name `make.<locals>.k`.
  if (const sema::CompiledFunction* found = state_->resolved.function(name)) {
    const sema::CompiledFunction& f = *found;
    if (f.kind == sema::CompiledFunctionKind::DeviceFunction)
      throw Error(ErrorKind::InvalidArgument,
                  state_->file.path() + ": `" + name +
                      "` is a device function; only kernels and ufuncs are launched");
    std::lock_guard lock(state_->kernelsMutex);
    std::shared_ptr<detail::KernelState>& k = state_->kernels[f.qualifiedName];
    if (k == nullptr) {
      k = std::make_shared<detail::KernelState>();
      k->module = state_.get();
      k->function = &f;
    }
    // The handle keeps the module (and so its kernels' states) alive.
    return Kernel(std::shared_ptr<detail::KernelState>(state_, k.get()));
  }
  std::string known;
  for (const std::string& n : kernel_names())
    known += (known.empty() ? "" : ", ") + n;
  throw Error(ErrorKind::InvalidArgument, state_->file.path() + " has no kernel named `" + name +
                                              "`" +
                                              (known.empty() ? "" : " (it has: " + known + ")"));
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> names;
  for (const sema::CompiledFunction& f : state_->resolved.functions)
    if (f.kind != sema::CompiledFunctionKind::DeviceFunction && !f.shadowed)
      names.push_back(f.nested() ? f.qualifiedName : f.name);
  return names;
}

void wait_for_compiles() {
  detail::waitForBackgroundCompiles();
}

} // namespace pyk
