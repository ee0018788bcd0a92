// LinkedSources: see LinkedSources.h.
#include "sema/resolve/LinkedSources.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "sema/resolve/ResolvedModule.h"

namespace pyk::sema {

namespace fs = std::filesystem;

std::optional<types::LinkedSource>
readLinkedSource(const std::string& written, const std::string& modulePath, std::string& why,
                 const std::vector<ImportSearch::Embedded>* embedded) {
  const fs::path name(written);
  const std::string ext = name.extension().string();
  const types::LinkedCodeKindInfo* known =
      types::findLinkedCodeKind(&types::LinkedCodeKindInfo::extension, ext);
  if (known == nullptr) {
    std::string extensions;
    const size_t count = std::size(types::kLinkedCodeKinds);
    for (size_t i = 0; i < count; ++i)
      extensions += std::string(i == 0           ? ""
                                : i + 1 == count ? " and "
                                                 : ", ") +
                    std::string(types::kLinkedCodeKinds[i].extension);
    why = ext.empty()
              ? "numba's linker tells code by its file's extension, and this name has none"
              : "numba's linker does not know a " + ext + " file (it links " + extensions + ")";
    return std::nullopt;
  }
  const types::LinkedCodeKind kind = known->kind;
  std::error_code ec;
  fs::path found;
  const fs::path beside = modulePath.empty() ? fs::path() : fs::path(modulePath).parent_path();
  if (embedded != nullptr)
    for (const fs::path& candidate : {name.is_absolute() ? name : beside / name, name})
      for (const ImportSearch::Embedded& e : *embedded)
        if (e.module.empty() && e.path == candidate.lexically_normal().string())
          return types::LinkedSource{e.path, e.text, false, kind};
  if (name.is_absolute()) {
    found = name;
  } else if (fs::is_regular_file(beside / name, ec)) {
    found = beside / name;
  } else if (fs::is_regular_file(name, ec)) {
    found = name; // the working directory, where numba opens it
  } else {
    why = "no such file beside " + (modulePath.empty() ? std::string("the module") : modulePath) +
          " or in the working directory";
    return std::nullopt;
  }
  if (!fs::is_regular_file(found, ec)) {
    why = "no such file";
    return std::nullopt;
  }
  std::ifstream in(found, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    why = "it cannot be read";
    return std::nullopt;
  }
  return types::LinkedSource{found.lexically_normal().string(), text.str(), false, kind};
}

std::vector<types::LinkedSource>
readLinkedSources(const std::vector<std::string>& written, const std::string& modulePath,
                  const std::vector<ImportSearch::Embedded>* embedded, DiagnosticEngine& diags,
                  SourceRange at, const std::string& asker) {
  std::vector<types::LinkedSource> out;
  for (const std::string& name : written) {
    std::string why;
    if (std::optional<types::LinkedSource> read = readLinkedSource(name, modulePath, why, embedded))
      out.push_back(std::move(*read));
    else
      diags.report(DiagKind::LinkedSourceUnusable, at, {name, asker, why});
  }
  return out;
}

std::vector<types::LinkedSource>
readLinkedSources(std::vector<types::LinkedSource> inMemory,
                  const std::vector<std::string>& written, const std::string& modulePath,
                  const std::vector<ImportSearch::Embedded>* embedded, DiagnosticEngine& diags,
                  SourceRange at, const std::string& asker) {
  std::vector<types::LinkedSource> files =
      readLinkedSources(written, modulePath, embedded, diags, at, asker);
  inMemory.insert(inMemory.end(), files.begin(), files.end());
  return inMemory;
}

ConstantValue withLinkedFiles(ConstantValue value, const std::string& modulePath,
                              const std::vector<ImportSearch::Embedded>* embedded,
                              DiagnosticEngine& diags, SourceRange at) {
  if (value.kind != ConstantValue::Kind::ForeignFunction)
    return value;
  const ConstantValue::ForeignFunction f = value.foreignFunction();
  return ConstantValue::foreignFunction(
      f.symbol, f.signature, f.links, f.abi,
      readLinkedSources(f.sources, f.links, modulePath, embedded, diags, at,
                        "cuda.declare_device's link= for `" + f.symbol + "`"));
}

std::vector<ImportSearch::Embedded> embeddedLinkedSources(const ResolvedModule& resolved) {
  std::vector<ImportSearch::Embedded> out;
  auto add = [&](const types::LinkedSource& source) {
    if (source.inMemory)
      return; // a cuda.CUSource: its text is in the module's, which is embedded
    // A binary (CUBIN, object...) is not text pykc build can embed: the images it builds are
    // linked with it already; a compile at run time reads the file again.
    if (!source.isText())
      return;
    for (const ImportSearch::Embedded& e : out)
      if (e.path == source.path)
        return;
    out.push_back({"", source.path, source.text});
  };
  for (const ModuleConstant& c : resolved.symbols.constants())
    if (c.value.kind == ConstantValue::Kind::ForeignFunction)
      for (const types::LinkedSource& source : c.value.foreignFunction().sources)
        add(source);
  for (const CompiledFunction& f : resolved.functions)
    for (const types::LinkedSource& source : f.options.linkSources)
      add(source);
  return out;
}

} // namespace pyk::sema
