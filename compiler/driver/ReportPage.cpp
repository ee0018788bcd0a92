// ReportPage: the HTML of `pykc report` (driver/ReportPage.h). Every link is a plain anchor, so
// the page reads without its script; the script highlights a Python line's generated lines (and
// back) on a click, and counts the links whose target is missing into <body data-broken-links>,
// which the browser test reads.
#include "driver/ReportPage.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>

namespace pyk::driver {

namespace {

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 2em; color: #1d1d1f; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 2em; border-top: 1px solid #ccc;
padding-top: 1em; } h3 { font-size: 1em; margin: 0.3em 0; }
.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
.facts dt { font-weight: 600; } .facts dd { margin: 0; }
.panes { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 0.8em; }
.pane { border: 1px solid #ccc; border-radius: 4px; overflow: auto; max-height: 75vh; }
.pane h3 { position: sticky; top: 0; background: #f4f4f6; padding: 0.2em 0.5em; }
.line { font: 12px/1.35 ui-monospace, monospace; white-space: pre; padding: 0 0.4em;
cursor: pointer; }
.line .no { display: inline-block; min-width: 3.5em; color: #999; text-align: right;
margin-right: 0.8em; }
.line a { color: #2f6fbf; text-decoration: none; margin-left: 0.6em; font-size: 11px; }
.line a.to-py, .line .from { display: inline-block; min-width: 2.5em; margin: 0 0.6em 0 0; }
.line.typed { background: #f8fbf4; } h3.module { border-top: 1px solid #ccc; } .line.hl { background: #ffe9a8; }
.types { font: 11px/1.3 ui-monospace, monospace; color: #4a7a00; white-space: pre-wrap;
padding-left: 5em; }
.vars { font: 12px ui-monospace, monospace; }
pre.block { font: 12px/1.35 ui-monospace, monospace; background: #f8f8fa; padding: 0.6em;
overflow: auto; max-height: 60vh; }
.diff-del { background: #fde8e8; } .diff-add { background: #e6f6e6; }
.missing { color: #8a5a00; }
)";

constexpr const char* kScript = R"(
(function () {
  var links = document.querySelectorAll('a.to-py, a.to-cuda, a.to-cpu');
  var broken = 0;
  for (var i = 0; i < links.length; ++i)
    if (!document.getElementById(links[i].getAttribute('href').slice(1))) ++broken;
  document.body.dataset.links = String(links.length);
  document.body.dataset.brokenLinks = String(broken);
  var sections = document.querySelectorAll('section.spec');
  for (var s = 0; s < sections.length; ++s) {
    sections[s].addEventListener('click', function (event) {
      var line = event.target.closest('.line');
      if (!line || !line.dataset.py) return;
      var lit = this.querySelectorAll('.line.hl');
      for (var j = 0; j < lit.length; ++j) lit[j].classList.remove('hl');
      var same = this.querySelectorAll('.line[data-py="' + line.dataset.py + '"]');
      for (var k = 0; k < same.length; ++k) same[k].classList.add('hl');
    });
  }
  document.body.dataset.ready = '1';
})();
)";

// A source line's place in a section: the id of its element (`s0-py-12`; another file's
// `s0-py2-12`) and its data-py (`12`, `2:12`), which the lines it became carry too.
std::string sourceLineId(const std::string& section, unsigned file, unsigned line) {
  return section + "-py" + (file == 0 ? "" : std::to_string(file)) + "-" + std::to_string(line);
}
std::string sourceLineKey(unsigned file, unsigned line) {
  return (file == 0 ? "" : std::to_string(file) + ":") + std::to_string(line);
}

// A generated pane: its lines, each linked to the Python line it came from.
void writeGeneratedPane(std::ostream& out, const std::string& section, const std::string& pane,
                        const std::string& title, const std::vector<GeneratedLine>& lines) {
  const std::string id = section + "-" + pane;
  out << "<div class=\"pane\" id=\"" << id << "\"><h3>" << escaped(title) << "</h3>\n";
  for (size_t i = 0; i < lines.size(); ++i) {
    const GeneratedLine& l = lines[i];
    out << "<div class=\"line\" id=\"" << id << '-' << i + 1 << '"';
    if (l.sourceLine != 0)
      out << " data-py=\"" << sourceLineKey(l.file, l.sourceLine) << '"';
    out << "><span class=\"no\">" << i + 1 << "</span>";
    if (l.sourceLine != 0)
      out << "<a class=\"to-py\" href=\"#" << sourceLineId(section, l.file, l.sourceLine)
          << "\" title=\"the Python line it came from\">" << sourceLineKey(l.file, l.sourceLine)
          << "</a>";
    else
      out << "<span class=\"from\"></span>";
    out << escaped(l.text) << "</div>\n";
  }
  out << "</div>\n";
}

// `what` and the count of changed lines closing the summary, then the changes, each with a line
// of context, longer unchanged runs folded into "...".
void writeDiff(std::ostream& out, const char* what,
               const std::vector<std::pair<char, std::string>>& diff) {
  const auto changed =
      std::count_if(diff.begin(), diff.end(), [](const auto& d) { return d.first != ' '; });
  out << what << changed << " lines</summary><pre class=\"block diff\">";
  bool folded = false;
  for (size_t i = 0; i < diff.size(); ++i) {
    const bool near =
        (i > 0 && diff[i - 1].first != ' ') || (i + 1 < diff.size() && diff[i + 1].first != ' ');
    if (diff[i].first == ' ' && !near) {
      if (!folded)
        out << "  ...\n";
      folded = true;
      continue;
    }
    folded = false;
    const char* cls = diff[i].first == '-'   ? "diff-del"
                      : diff[i].first == '+' ? "diff-add"
                                             : "same";
    out << "<span class=\"" << cls << "\">" << diff[i].first << ' ' << escaped(diff[i].second)
        << "</span>\n";
  }
  out << "</pre>";
}

using SourceLine = std::pair<unsigned, unsigned>; // a source's index, a line of it

// The first generated line of each source line.
std::map<SourceLine, size_t> firstLines(const std::vector<GeneratedLine>& lines) {
  std::map<SourceLine, size_t> first;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].sourceLine != 0)
      first.emplace(SourceLine{lines[i].file, lines[i].sourceLine}, i + 1);
  return first;
}

void writeSection(std::ostream& out, const ReportInput& input, const ReportSection& section,
                  size_t index) {
  const std::string id = "s" + std::to_string(index);
  std::vector<std::string> names;
  for (const ReportSource& source : input.sources)
    names.push_back(source.name);
  const std::vector<GeneratedLine> cuda = mapGeneratedLines(section.cudaSource, names);
  const std::vector<GeneratedLine> cpu = mapGeneratedLines(section.cpuSource, names);
  const std::map<SourceLine, size_t> firstCuda = firstLines(cuda), firstCpu = firstLines(cpu);
  std::map<SourceLine, std::vector<const sema::TypedFunctionText::Expression*>> types;
  for (const sema::TypedFunctionText& t : section.typed) {
    const auto file = std::find(names.begin(), names.end(), t.file);
    if (file == names.end())
      continue;
    for (const auto& [line, expressions] : t.lines)
      for (const auto& e : expressions)
        types[{static_cast<unsigned>(file - names.begin()), line}].push_back(&e);
  }

  out << "<section class=\"spec\" id=\"" << id << "\">\n<h2>" << escaped(section.description)
      << "</h2>\n<dl class=\"facts\">\n";
  out << "<dt>CPU backend</dt><dd class=\"cpu-mode\">" << escaped(section.cpuMode) << " ("
      << escaped(section.cpuModeReason) << ")</dd>\n";
  out << "<dt>CUDA</dt><dd>" << escaped(section.cudaTarget) << "</dd>\n";
  out << "<dt>Resources</dt><dd class=\"resources\">"
      << escaped(section.resourceUsage.empty() ? "(needs the SASS, below)" : section.resourceUsage)
      << "</dd>\n</dl>\n";
  for (const sema::TypedFunctionText& t : section.typed) {
    out << "<details class=\"vars\"><summary>" << escaped(t.heading) << "</summary><ul>\n";
    for (const auto& v : t.variables)
      out << "<li>" << v.role << " <b>" << escaped(v.name) << "</b>: " << escaped(v.types)
          << "</li>\n";
    out << "</ul></details>\n";
  }
  // The file reported, then each module whose lines this specialization's code came from.
  out << "<div class=\"panes\">\n<div class=\"pane\" id=\"" << id
      << "-py\"><h3>Python: " << escaped(names[0]) << "</h3>\n";
  for (unsigned f = 0; f < input.sources.size(); ++f) {
    const auto used = [&](const auto& lines) {
      return std::any_of(lines.begin(), lines.end(),
                         [&](const auto& l) { return l.first.first == f; });
    };
    if (f > 0 && !used(firstCuda) && !used(firstCpu) && !used(types))
      continue;
    if (f > 0)
      out << "<h3 class=\"module\">" << escaped(names[f]) << "</h3>\n";
    const std::vector<std::string>& lines = input.sources[f].lines;
    for (size_t i = 0; i < lines.size(); ++i) {
      const unsigned line = static_cast<unsigned>(i + 1);
      const auto typed = types.find({f, line});
      out << "<div class=\"line" << (typed != types.end() ? " typed" : "") << "\" id=\""
          << sourceLineId(id, f, line) << "\" data-py=\"" << sourceLineKey(f, line)
          << "\"><span class=\"no\">" << line << "</span>" << escaped(lines[i]);
      if (auto c = firstCuda.find({f, line}); c != firstCuda.end())
        out << "<a class=\"to-cuda\" href=\"#" << id << "-cuda-" << c->second << "\">cuda "
            << c->second << "</a>";
      if (auto c = firstCpu.find({f, line}); c != firstCpu.end())
        out << "<a class=\"to-cpu\" href=\"#" << id << "-cpu-" << c->second << "\">cpu "
            << c->second << "</a>";
      if (typed != types.end()) {
        out << "<div class=\"types\">";
        for (const auto* e : typed->second)
          out << escaped(e->text) << " :: " << escaped(e->type) << '\n';
        out << "</div>";
      }
      out << "</div>\n";
    }
  }
  out << "</div>\n";
  writeGeneratedPane(out, id, "cuda", "CUDA C++ (" + section.cudaTarget + ")", cuda);
  writeGeneratedPane(out, id, "cpu", "CPU C++ (" + section.cpuMode + ")", cpu);
  out << "</div>\n";

  out << "<details class=\"index32\"><summary>The index32 variant (what launches whose arrays "
         "each have under 2**31 elements and whose grid axes under 2**31 threads run): ";
  if (!section.cudaIndex32Source.empty() && section.cudaIndex32Source != section.cudaSource) {
    writeDiff(out, "its CUDA C++ (- the 64-bit variant, + index32) differs in ",
              diffLines(splitLines(section.cudaSource), splitLines(section.cudaIndex32Source)));
  } else {
    out << "the same CUDA C++ compiled with <code>PYK_INDEX32</code> defined (thread indices and "
           "sizes in 32 bits); ";
    if (section.ptx.empty() || section.ptxIndex32.empty())
      out << "<span class=\"missing\">its PTX needs NVRTC</span></summary>";
    else
      writeDiff(out, "its PTX (- the 64-bit variant, + index32) differs in ",
                diffLines(splitLines(section.ptx), splitLines(section.ptxIndex32)));
  }
  out << "</details>\n";
  out << "<details class=\"ptx\"><summary>PTX (" << escaped(section.cudaTarget) << ")";
  if (section.ptx.empty())
    out << ": <span class=\"missing\">" << escaped(section.ptxMissing) << "</span></summary>";
  else
    out << "</summary><pre class=\"block\">" << escaped(section.ptx) << "</pre>";
  out << "</details>\n<details class=\"sass\"><summary>SASS, registers and spills";
  if (section.sass.empty())
    out << ": <span class=\"missing\">" << escaped(section.sassMissing) << "</span></summary>";
  else
    out << "</summary><pre class=\"block\">" << escaped(section.sass) << "</pre>";
  out << "</details>\n</section>\n";
}

} // namespace

std::vector<GeneratedLine> mapGeneratedLines(const std::string& unit,
                                             const std::vector<std::string>& fileNames) {
  std::vector<GeneratedLine> out;
  unsigned current = 0, currentFile = 0;
  for (std::string& line : splitLines(unit)) {
    if (line.rfind("#line ", 0) == 0) {
      // #line N "name": the name unescaped (\\ and \") and compared with the report's file.
      unsigned number = 0;
      size_t i = 6;
      while (i < line.size() && line[i] >= '0' && line[i] <= '9')
        number = number * 10 + static_cast<unsigned>(line[i++] - '0');
      std::string name;
      const size_t open = line.find('"', i);
      for (size_t j = open == std::string::npos ? line.size() : open + 1; j < line.size(); ++j) {
        if (line[j] == '\\' && j + 1 < line.size())
          name += line[++j];
        else if (line[j] == '"')
          break;
        else
          name += line[j];
      }
      const auto file = std::find(fileNames.begin(), fileNames.end(), name);
      current = file != fileNames.end() ? number : 0;
      currentFile = file != fileNames.end() ? static_cast<unsigned>(file - fileNames.begin()) : 0;
      continue;
    }
    out.push_back({std::move(line), currentFile, current});
  }
  return out;
}

std::vector<std::pair<char, std::string>> diffLines(const std::vector<std::string>& before,
                                                    const std::vector<std::string>& after) {
  // The common head and tail, then a longest common subsequence of the middle.
  size_t head = 0;
  while (head < before.size() && head < after.size() && before[head] == after[head])
    ++head;
  size_t tail = 0;
  while (tail < before.size() - head && tail < after.size() - head &&
         before[before.size() - 1 - tail] == after[after.size() - 1 - tail])
    ++tail;
  const size_t n = before.size() - head - tail, m = after.size() - head - tail;
  std::vector<std::pair<char, std::string>> out;
  for (size_t i = 0; i < head; ++i)
    out.push_back({' ', before[i]});
  if (n * m > 16'000'000) { // too large to align: all of one, then all of the other
    for (size_t i = 0; i < n; ++i)
      out.push_back({'-', before[head + i]});
    for (size_t j = 0; j < m; ++j)
      out.push_back({'+', after[head + j]});
  } else {
    std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        at(i, j) = before[head + i] == after[head + j] ? at(i + 1, j + 1) + 1
                                                       : std::max(at(i + 1, j), at(i, j + 1));
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && before[head + i] == after[head + j]) {
        out.push_back({' ', before[head + i]});
        ++i, ++j;
      } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
        out.push_back({'+', after[head + j++]});
      } else {
        out.push_back({'-', before[head + i++]});
      }
    }
  }
  for (size_t i = before.size() - tail; i < before.size(); ++i)
    out.push_back({' ', before[i]});
  return out;
}

void writeReportPage(const ReportInput& input, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pyk "
         "report: "
      << escaped(input.sources.at(0).name) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n";
  out << "<h1>pyk report: " << escaped(input.sources.at(0).name) << "</h1>\n<p>"
      << escaped(input.generator)
      << ". Click a line to light up the lines it became (or came from); the links jump to "
         "them.</p>\n<ul class=\"toc\">\n";
  for (size_t i = 0; i < input.sections.size(); ++i)
    out << "<li><a href=\"#s" << i << "\">" << escaped(input.sections[i].description)
        << "</a></li>\n";
  out << "</ul>\n";
  for (size_t i = 0; i < input.sections.size(); ++i)
    writeSection(out, input, input.sections[i], i);
  out << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

} // namespace pyk::driver
