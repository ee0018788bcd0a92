// UserModules: finding, reading and resolving the modules of the user's a file imports.
#include "sema/resolve/UserModules.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "sema/resolve/FrontEnd.h"

namespace pyk::sema {

namespace fs = std::filesystem;

std::vector<std::string> pykPathDirectories() {
  std::vector<std::string> dirs;
  const char* value = std::getenv("PYK_PATH");
  if (value == nullptr)
    return dirs;
  std::string all = value;
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find(':', start);
    if (end == std::string::npos)
      end = all.size();
    if (end > start)
      dirs.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return dirs;
}

namespace {

void collectImported(const ResolvedModule& resolved, std::vector<ImportSearch::Embedded>& out) {
  for (const std::shared_ptr<const LibraryModule>& m : resolved.imported.modules) {
    bool seen = false;
    for (const ImportSearch::Embedded& e : out)
      seen = seen || e.module == m->qualifiedName;
    if (seen)
      continue;
    out.push_back({m->qualifiedName, m->file.path(), m->file.text()});
    collectImported(m->resolved, out);
  }
}

} // namespace

ConstantValue moduleConstant(const LibraryModule& m) {
  std::vector<std::pair<std::string, ConstantValue>> members;
  for (const std::string& name : m.resolved.symbols.names())
    if (const ModuleConstant* c = m.resolved.symbols.constantNamed(name))
      members.push_back({name, c->value});
  return ConstantValue::module(m.qualifiedName, std::move(members));
}

// `event`'s binding of a module of the user's (see the header).
void bindUserImport(ImportBinding binding, bool fromImport, SourceRange statement,
                    const std::string& importerPath, ModuleImporter& importer,
                    ModuleSymbolTable& symbols, ImportedNames& imported) {
  const std::string q = binding.qualifiedName;
  const std::string& name = binding.name;
  std::string whyNot;
  if (!fromImport) {
    // `import helpers`, `import pkg.mod as m` (`import pkg.mod` binds the package `pkg`).
    std::shared_ptr<const LibraryModule> m = importer.load(q, importerPath, whyNot);
    if (m != nullptr)
      imported.modules.push_back(m); // its errors point into its file
    if (m == nullptr || !m->errors.empty()) {
      binding.userModule = q;
      binding.unusable = m == nullptr ? whyNot : "has errors";
      if (m != nullptr)
        binding.userModuleErrors = m->errors;
      symbols.bindImport(std::move(binding));
      return;
    }
    symbols.bindConstant({name, moduleConstant(*m), statement});
    return;
  }
  const size_t dot = q.rfind('.');
  const std::string moduleName = q.substr(0, dot), member = q.substr(dot + 1);
  std::shared_ptr<const LibraryModule> m = importer.load(moduleName, importerPath, whyNot);
  if (m != nullptr)
    imported.modules.push_back(m); // its errors point into its file
  binding.userModule = moduleName;
  if (m == nullptr || !m->errors.empty()) {
    // `from pkg import mod`, where pkg/mod.py is the module.
    std::string whyNotSub;
    if (m == nullptr)
      if (std::shared_ptr<const LibraryModule> sub = importer.load(q, importerPath, whyNotSub);
          sub != nullptr && sub->errors.empty()) {
        imported.modules.push_back(sub);
        symbols.bindConstant({name, moduleConstant(*sub), statement});
        return;
      }
    binding.unusable = m == nullptr ? whyNot : "has errors";
    if (m != nullptr)
      binding.userModuleErrors = m->errors;
    symbols.bindImport(std::move(binding));
    return;
  }
  const ModuleSymbol* symbol = m->resolved.symbols.find(member);
  binding.memberProblem = true;
  if (symbol == nullptr) {
    binding.unusable = "is not defined there";
  } else if (symbol->kind == ModuleSymbolKind::Constant) {
    symbols.bindConstant({name, m->resolved.symbols.constants()[symbol->index].value, statement});
    return;
  } else if (symbol->kind == ModuleSymbolKind::CompiledFunction) {
    const CompiledFunction& f = m->resolved.functions[symbol->index];
    if (const CompiledFunction* callable = m->resolved.deviceCallable(f)) {
      binding.importedFunction = imported.indexOf(callable);
      symbols.bindImport(std::move(binding));
      return;
    }
    binding.unusable = std::string("is a `") + nameOf(f.kind) + "` ufunc";
  } else if (symbol->kind == ModuleSymbolKind::HostValue ||
             symbol->kind == ModuleSymbolKind::HostFunction ||
             symbol->kind == ModuleSymbolKind::Class) {
    const HostValue& v = m->resolved.symbols.hostValues()[symbol->index];
    binding.unusable = symbol->kind == ModuleSymbolKind::HostFunction
                           ? "is not a device function; decorate it with `@cuda.jit(device=True)`"
                       : symbol->kind == ModuleSymbolKind::Class
                           ? "is a class"
                           : "is not a compile-time constant: " + v.reason;
  } else {
    // An import of that module's own: what it imports is the user's to import directly.
    const ImportBinding& again = m->resolved.symbols.imports()[symbol->index];
    binding.qualifiedName = again.qualifiedName;
    binding.userModule = again.userModule;
    binding.unusable = again.unusable;
    binding.memberProblem = again.memberProblem;
    binding.userModuleErrors = again.userModuleErrors;
    if (again.importedFunction)
      binding.importedFunction =
          imported.indexOf(m->resolved.imported.functions[*again.importedFunction]);
    else if (again.userModule.empty())
      binding.userModule.clear(); // numba's or numpy's API, re-exported
  }
  symbols.bindImport(std::move(binding));
}

std::vector<ImportSearch::Embedded> importedSources(const ResolvedModule& resolved) {
  std::vector<ImportSearch::Embedded> out;
  collectImported(resolved, out);
  return out;
}

std::shared_ptr<const LibraryModule> ModuleImporter::load(const std::string& name,
                                                          const std::string& importerPath,
                                                          std::string& whyNot) {
  for (const ImportSearch::Embedded& e : search_.embedded)
    if (e.module == name)
      return resolve(name, "embedded:" + e.path, SourceFile(e.path, e.text), whyNot);
  std::string relative = name;
  for (char& c : relative)
    if (c == '.')
      c = '/';
  std::vector<fs::path> dirs;
  const fs::path importerDir = fs::path(importerPath).parent_path();
  dirs.push_back(importerDir); // empty: the current directory, as the importer's path has it
  for (const std::string& d : search_.dirs)
    dirs.push_back(d);
  fs::path found;
  for (const fs::path& dir : dirs) {
    for (const char* suffix : {".pyk", ".py"}) {
      std::error_code ec;
      const fs::path candidate =
          dir.empty() ? fs::path(relative + suffix) : dir / (relative + suffix);
      if (fs::is_regular_file(candidate, ec)) {
        found = candidate;
        break;
      }
    }
    if (!found.empty())
      break;
  }
  if (found.empty()) {
    std::string where = "`" + importerDir.string() + "`";
    if (importerDir.empty())
      where = "the current directory";
    whyNot = "pyk cannot find: no " + relative + ".pyk or " + relative + ".py beside " +
             fs::path(importerPath).filename().string() + " (in " + where + ")";
    whyNot += search_.dirs.empty() ? ", and no search path is set (--include-dir, PYK_PATH)"
                                   : " or in the search path (--include-dir, PYK_PATH)";
    return nullptr;
  }
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(found, ec);
  const std::string key = ec ? found.string() : canonical.string();
  if (loaded_.count(key) != 0 || std::count(loading_.begin(), loading_.end(), key) != 0)
    return resolve(name, key, SourceFile("", ""), whyNot);
  std::string readError;
  std::optional<SourceFile> file = SourceFile::read(found.string(), readError);
  if (!file) {
    whyNot = "cannot be read: " + found.string() + ": " + readError;
    return nullptr;
  }
  return resolve(name, key, std::move(*file), whyNot);
}

std::shared_ptr<const LibraryModule> ModuleImporter::resolve(const std::string& name,
                                                             const std::string& key,
                                                             SourceFile file, std::string& whyNot) {
  if (std::count(loading_.begin(), loading_.end(), key) != 0) {
    whyNot = "is being imported already: a circular import";
    return nullptr;
  }
  if (auto it = loaded_.find(key); it != loaded_.end())
    return it->second;
  auto module =
      std::shared_ptr<LibraryModule>(new LibraryModule{name, std::move(file), {}, {}, true, {}});
  DiagnosticEngine diags(&module->file);
  loading_.push_back(key);
  FrontEndResult front = runFrontEnd(module->file, diags, FrontEndStop::Resolved, this);
  loading_.pop_back();
  module->parsed = std::move(front.parsed);
  module->resolved = std::move(front.resolved);
  for (CompiledFunction& function : module->resolved.functions)
    function.library = module.get();
  for (const Diagnostic& d : diags.diagnostics()) {
    if (d.severity != Severity::Error && d.severity != Severity::Fatal)
      continue;
    Diagnostic inFile = d;
    if (inFile.file == nullptr)
      inFile.file = &module->file;
    for (Diagnostic& note : inFile.notes)
      if (note.file == nullptr)
        note.file = &module->file;
    module->errors.push_back(std::move(inFile));
  }
  loaded_.emplace(key, module);
  return module;
}

} // namespace pyk::sema
