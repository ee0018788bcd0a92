// GeneratedPage: the command line of the programs that write a page of docs/ from pyk's own tables
// (pyk_language_reference, pyk_settings_reference), declared once:
//
//   TOOL                 prints the page
//   TOOL --output FILE   writes it to FILE
//   TOOL --check FILE    exit 1, saying how to regenerate it, when FILE differs
//
// Their build targets and the test that the checked-in page is current come from
// pyk_add_generated_page (cmake/PykGeneratedPage.cmake).
#pragma once

#include <cstddef>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

namespace pyk::base {

// Runs the program `tool`, whose page is `text`; `source` says what the page comes from, as the
// message of --check puts it ("what the compiler's tables give"), `updateCommand` how to rewrite
// the checked-in page. Returns the exit status.
inline int runGeneratedPageTool(int argc, char** argv, std::string_view tool,
                                std::string_view source, std::string_view updateCommand,
                                const std::string& text) {
  auto usage = [&] {
    std::cerr << "usage: " << tool << " [--output FILE | --check FILE]\n";
    return 2;
  };
  if (argc == 1) {
    std::cout << text;
    return std::cout ? 0 : 1;
  }
  if (argc != 3)
    return usage();
  const std::string option = argv[1], path = argv[2];
  if (option == "--output") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::cerr << tool << ": cannot write " << path << "\n";
      return 1;
    }
    return 0;
  }
  if (option != "--check")
    return usage();
  std::ifstream in(path, std::ios::binary);
  std::ostringstream current;
  if (!in || !(current << in.rdbuf())) {
    std::cerr << tool << ": cannot read " << path << "\n";
    return 1;
  }
  const std::string checkedIn = current.str();
  if (checkedIn == text)
    return 0;
  std::size_t line = 1; // the first line where they differ
  for (std::size_t i = 0; i < checkedIn.size() && i < text.size() && checkedIn[i] == text[i]; ++i)
    if (text[i] == '\n')
      ++line;
  std::cerr << path << " is not " << source << " (first difference at line " << line
            << "): regenerate it with `" << updateCommand << "` and commit it\n";
  return 1;
}

} // namespace pyk::base
