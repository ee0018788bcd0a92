// MutationTest: feeds `pykc check` seeded token-level mutants of the example files and checks
// that every one ends in success or diagnostics: no crash, no hang, no silent failure.
//
// usage: pyk_mutation_test PYKC SEED COUNT TIMEOUT_SECONDS FAILURE_DIR FILE...
// Runs COUNT mutants in all (spread over the files), two at a time, each in its own process
// under an alarm. A mutant that crashes or hangs is saved to FAILURE_DIR. PYK_MUTATION_ARGS
// (space-separated) replaces the default `check --color=never` before the file, to push the
// mutants further down the compiler (`emit --emit=ptx --color=never`); an internal error is
// then a failure like a crash, since it prints no `error:` of the user's.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// ---- a rough Python tokenizer: enough to cut source into tokens worth deleting and swapping ----

std::vector<std::string> tokenize(const std::string& s) {
  static const char* const kOperators[] = {"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**",
                                           "//",  "<<",  ">>",  "<=",  ">=",  "==", "!=", "+=",
                                           "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "@="};
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    size_t start = i;
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        ++i;
      if (i < s.size() && s[i] == '\n' && i == start)
        ++i;
      if (i == start)
        ++i;
    } else if (c == '#') {
      while (i < s.size() && s[i] != '\n')
        ++i;
    } else if (c == '"' || c == '\'') {
      bool triple = s.compare(i, 3, std::string(3, c)) == 0;
      std::string close = triple ? std::string(3, c) : std::string(1, c);
      i += close.size();
      while (i < s.size() && s.compare(i, close.size(), close) != 0 && (triple || s[i] != '\n'))
        i += s[i] == '\\' ? 2 : 1;
      i = std::min(s.size(), i + close.size());
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               static_cast<unsigned char>(c) >= 0x80) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' ||
                              s[i] == '.' || static_cast<unsigned char>(s[i]) >= 0x80))
        ++i;
    } else {
      size_t length = 1;
      for (const char* op : kOperators)
        if (s.compare(i, std::strlen(op), op) == 0) {
          length = std::strlen(op);
          break;
        }
      i += length;
    }
    tokens.push_back(s.substr(start, i - start));
  }
  return tokens;
}

// Tokens worth inserting: every kind of thing the grammar knows, and some it does not.
const std::vector<std::string> kInsertable = {"(",
                                              ")",
                                              "[",
                                              "]",
                                              "{",
                                              "}",
                                              ":",
                                              ",",
                                              ".",
                                              "=",
                                              "==",
                                              "+",
                                              "-",
                                              "*",
                                              "**",
                                              "/",
                                              "//",
                                              "%",
                                              "@",
                                              "->",
                                              ":=",
                                              "...",
                                              "\n",
                                              "\n    ",
                                              "    ",
                                              "\t",
                                              "\\\n",
                                              "if",
                                              "else",
                                              "elif",
                                              "for",
                                              "in",
                                              "while",
                                              "def",
                                              "class",
                                              "return",
                                              "lambda",
                                              "yield",
                                              "async",
                                              "await",
                                              "match",
                                              "case",
                                              "with",
                                              "as",
                                              "try",
                                              "except",
                                              "not",
                                              "and",
                                              "or",
                                              "is",
                                              "None",
                                              "True",
                                              "x",
                                              "cuda",
                                              "0",
                                              "1.5e3",
                                              "0x1F",
                                              "007",
                                              "3j",
                                              "'s'",
                                              "\"\"\"",
                                              "f'{x}'",
                                              "f'{'",
                                              "'",
                                              "\"",
                                              "#",
                                              "$",
                                              "?",
                                              "!",
                                              "`",
                                              "\\",
                                              "\xc3\xa9",
                                              "\xff",
                                              "cuda.grid(1)",
                                              "cuda.shared.array(0, float32)",
                                              "[x for x in y]"};

struct Mutant {
  std::string text;
  std::string description;
};

Mutant mutate(const std::vector<std::string>& tokens, std::mt19937_64& rng) {
  std::vector<std::string> t = tokens;
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  std::ostringstream what;
  int operations = 1 + static_cast<int>(pick(3)); // 1 to 3 edits
  for (int k = 0; k < operations && !t.empty(); ++k) {
    size_t i = pick(t.size());
    switch (pick(5)) {
    case 0:
      what << "delete@" << i << ' ';
      t.erase(t.begin() + static_cast<long>(i));
      break;
    case 1: {
      const std::string& token = kInsertable[pick(kInsertable.size())];
      what << "insert@" << i << ' ';
      t.insert(t.begin() + static_cast<long>(i), token);
      break;
    }
    case 2:
      if (i + 1 < t.size()) {
        what << "swap@" << i << ' ';
        std::swap(t[i], t[i + 1]);
      }
      break;
    case 3:
      what << "duplicate@" << i << ' ';
      t.insert(t.begin() + static_cast<long>(i), t[i]);
      break;
    default:
      what << "replace@" << i << ' ';
      t[i] = t[pick(t.size())];
      break;
    }
  }
  std::string text;
  for (const std::string& token : t)
    text += token;
  return {text, what.str()};
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

struct Running {
  pid_t pid;
  size_t index;
  std::string input;
  std::string errors;
};

} // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::cerr << "usage: " << argv[0] << " PYKC SEED COUNT TIMEOUT_SECONDS FAILURE_DIR FILE...\n";
    return 2;
  }
  const std::string pykc = argv[1];
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const size_t count = std::strtoull(argv[3], nullptr, 10);
  const unsigned timeout = static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10));
  const std::string failureDir = argv[5];
  std::vector<std::vector<std::string>> sources;
  std::vector<std::string> names;
  for (int i = 6; i < argc; ++i) {
    sources.push_back(tokenize(readFile(argv[i])));
    names.push_back(argv[i]);
  }
  if (sources.empty() || count == 0) {
    std::cerr << "no inputs\n";
    return 2;
  }

  std::vector<std::string> commandArgs{"check", "--color=never"};
  if (const char* custom = std::getenv("PYK_MUTATION_ARGS"); custom != nullptr && *custom) {
    commandArgs.clear();
    std::istringstream words(custom);
    for (std::string w; words >> w;)
      commandArgs.push_back(w);
  }

  char scratchTemplate[] = "/tmp/pyk-mutants-XXXXXX";
  const std::string scratch = mkdtemp(scratchTemplate);
  std::mt19937_64 rng(seed);
  const size_t parallel = 2;
  std::map<pid_t, Running> running;
  size_t next = 0, accepted = 0, rejected = 0, crashes = 0, hangs = 0, silent = 0;

  auto fail = [&](const Running& r, const std::string& kind) {
    mkdir(failureDir.c_str(), 0755);
    std::string path = failureDir + "/" + kind + "-" + std::to_string(r.index) + ".pyk";
    writeFile(path, readFile(r.input));
    std::cerr << kind << ": mutant " << r.index << " saved as " << path << '\n';
  };

  while (next < count || !running.empty()) {
    while (next < count && running.size() < parallel) {
      size_t file = next % sources.size();
      Mutant m = mutate(sources[file], rng);
      Running r{0, next, scratch + "/m" + std::to_string(next) + ".pyk",
                scratch + "/m" + std::to_string(next) + ".err"};
      writeFile(r.input, m.text);
      pid_t pid = fork();
      if (pid == 0) {
        int fd = open(r.errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, STDERR_FILENO);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        alarm(timeout); // kept across exec: a hang dies of SIGALRM
        std::vector<char*> argvOut{const_cast<char*>(pykc.c_str())};
        for (std::string& a : commandArgs)
          argvOut.push_back(a.data());
        argvOut.push_back(const_cast<char*>(r.input.c_str()));
        argvOut.push_back(nullptr);
        execv(pykc.c_str(), argvOut.data());
        _exit(127);
      }
      r.pid = pid;
      running[pid] = r;
      ++next;
    }
    int status = 0;
    pid_t done = waitpid(-1, &status, 0);
    if (done <= 0)
      break;
    Running r = running[done];
    running.erase(done);
    if (WIFSIGNALED(status)) {
      if (WTERMSIG(status) == SIGALRM) {
        ++hangs;
        fail(r, "hang");
      } else {
        ++crashes;
        fail(r, "crash");
      }
    } else if (WEXITSTATUS(status) == 0) {
      ++accepted;
    } else if (WEXITSTATUS(status) == 1) {
      ++rejected;
      if (readFile(r.errors).find(": error: ") == std::string::npos) {
        ++silent;
        fail(r, "silent");
      }
    } else {
      ++crashes; // an internal error or a failed exec
      fail(r, "exit" + std::to_string(WEXITSTATUS(status)));
    }
    std::remove(r.input.c_str());
    std::remove(r.errors.c_str());
  }
  rmdir(scratch.c_str());

  std::cout << "mutants: " << count << " (seed " << seed << ", " << names.size()
            << " files), accepted: " << accepted << ", rejected with diagnostics: " << rejected
            << "\ncrashes: " << crashes << ", hangs: " << hangs
            << ", failures without a diagnostic: " << silent << '\n';
  const size_t bad = crashes + hangs + silent;
  std::cout << (count - bad) << " passed, " << bad << " failed\n";
  return bad == 0 ? 0 : 1;
}
