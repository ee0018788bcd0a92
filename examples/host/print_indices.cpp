// print_indices: seed 002's four programs, each launching `gpu[2, 4]()` whose threads print their
// index in the block, their block's index, the block's size or the grid's size. The printed lines
// are captured and checked: the eight threads' lines, in any order (blocks run in any order).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "example.h"

namespace {

// What `work` writes to standard output (the kernels' print), also passed on to it.
template <typename Work>
std::string captureStdout(Work&& work) {
  std::fflush(stdout);
  std::FILE* sink = std::tmpfile();
  if (sink == nullptr)
    throw std::runtime_error("print_indices: cannot make a temporary file");
  const int saved = dup(STDOUT_FILENO);
  dup2(fileno(sink), STDOUT_FILENO);
  work();
  pyk::synchronize();
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::string text;
  std::rewind(sink);
  for (int c; (c = std::fgetc(sink)) != EOF;)
    text += static_cast<char>(c);
  std::fclose(sink);
  std::fputs(text.c_str(), stdout);
  return text;
}

std::vector<std::string> sortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

} // namespace

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    struct Program {
      const char* file;
      const char* label;
      int (*value)(int block, int thread); // what the thread (block, thread) prints
    };
    const Program programs[] = {
        {"print_thread_index.pyk", "threadIdx", [](int, int t) { return t; }},
        {"print_block_index.pyk", "blockIdx", [](int b, int) { return b; }},
        {"print_block_dim.pyk", "blockDim", [](int, int) { return 4; }},
        {"print_grid_dim.pyk", "gridDim", [](int, int) { return 2; }}};
    for (const Program& p : programs) {
      pyk::Kernel gpu = pyk::load(o.examples / p.file)["gpu"];
      std::string printed;
      const double secs = example::seconds([&] {
        printed = captureStdout([&] { gpu[{2, 4}](); });
      });
      std::vector<std::string> expected;
      for (int block = 0; block < 2; ++block)
        for (int thread = 0; thread < 4; ++thread)
          expected.push_back(std::string(p.label) + ": " + std::to_string(p.value(block, thread)));
      std::sort(expected.begin(), expected.end());
      example::result(std::string("print_") + p.label, secs, sortedLines(printed) == expected);
    }
  });
}
