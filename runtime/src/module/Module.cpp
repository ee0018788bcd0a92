// Module: pyk::load and module["name"]: the module through the compiler service's front end once,
// its errors thrown as the located diagnostics pykc prints.
#include <cstring>
#include <functional>

#include "module/BackgroundCompiles.h"
#include "module/ModuleState.h"
#include "module/ScalarConversion.h"

namespace pyk {

namespace {

jit::ImportOptions importOptions(const LoadOptions& options) {
  jit::ImportOptions imports;
  for (const std::filesystem::path& d : options.include_dirs)
    imports.includeDirs.push_back(d.string());
  for (const std::filesystem::path& l : options.link)
    imports.links.push_back(l.string());
  return imports;
}

} // namespace

Module load(const std::filesystem::path& path, const LoadOptions& options) {
  return Module(
      std::make_shared<detail::ModuleState>(jit::SourceModule::load(path, importOptions(options))));
}

Module loads(const std::string& source, const std::string& name, const LoadOptions& options) {
  return Module(std::make_shared<detail::ModuleState>(
      jit::SourceModule::fromText(source, name, importOptions(options))));
}

KernelArgument Module::enum_member(const std::string& qualified_name) const {
  const std::size_t dot = qualified_name.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == qualified_name.size())
    throw Error(ErrorKind::InvalidArgument,
                "`" + qualified_name +
                    "` is not an Enum member: write it CLASS.MEMBER (`Color.red`)");
  const std::string cls = qualified_name.substr(0, dot), name = qualified_name.substr(dot + 1);
  const jit::SourceModule::EnumMemberArgument resolved = state_->source->enumMember(cls, name);
  // A number's value, or a tuple of them (Planet.EARTH = (5.976e+24, 6.37814e6)).
  std::function<KernelArgument(const jit::SourceModule::EnumMemberArgument&,
                               const types::NumbaType&)>
      valueOf = [&](const jit::SourceModule::EnumMemberArgument& v, const types::NumbaType& t) {
        if (t.isTuple()) {
          std::vector<KernelArgument> elements;
          for (size_t i = 0; i < v.elements.size(); ++i)
            elements.push_back(valueOf(v.elements[i], t.elements()[i]));
          return KernelArgument::tuple_of(std::move(elements));
        }
        KernelArgument scalar;
        scalar.dtype = *detail::dtypeOfKind(t.scalarKind()); // a number's dtype
        std::memcpy(scalar.value, v.value, sizeof scalar.value);
        return scalar;
      };
  KernelArgument k = valueOf(resolved, resolved.type.enumValue());
  k.kind = KernelArgument::Kind::EnumMember; // (a tuple value's elements stay in k.tuple)
  k.member = std::make_shared<const EnumArgument>(
      EnumArgument{cls, name, resolved.type.isIntEnumMember()});
  return k;
}

Kernel Module::operator[](const std::string& name) const {
  // By its name, or (a kernel defined inside a function) its qualified name `make.<locals>.k`.
  if (const jit::FunctionInfo* found = state_->source->function(name)) {
    const jit::FunctionInfo& f = *found;
    if (f.kind == types::CompiledFunctionKind::DeviceFunction)
      throw Error(ErrorKind::InvalidArgument,
                  state_->path() + ": `" + name +
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
  throw Error(ErrorKind::InvalidArgument, state_->path() + " has no kernel named `" + name + "`" +
                                              (known.empty() ? "" : " (it has: " + known + ")"));
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> names;
  for (const jit::FunctionInfo& f : state_->source->functions())
    if (f.kind != types::CompiledFunctionKind::DeviceFunction && !f.shadowed)
      names.push_back(f.nested ? f.qualifiedName : f.name);
  return names;
}

std::string Module::warnings() const {
  return state_->source->warnings();
}

void wait_for_compiles() {
  detail::waitForBackgroundCompiles();
}

} // namespace pyk
