// RunArguments: `pykc run`'s argument syntax (arrays, records, scalars, aliases, tuples, named
// tuples), read by a small recursive-descent parser, and the arrays written back.
#include "pykc/RunArguments.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace pyk::driver {

namespace {

constexpr int kMaxTupleDepth = 32;

class ArgumentParser {
public:
  ArgumentParser(const std::string& text, std::deque<AnyDeviceArray>& arrays,
                 std::map<const AnyDeviceArray*, std::vector<std::int64_t>>& recordShapes,
                 const std::vector<KernelArgument>& earlier, const Module* module)
      : text_(text), arrays_(arrays), recordShapes_(recordShapes), earlier_(earlier),
        module_(module) {}

  KernelArgument parse() {
    KernelArgument a = argument(0, /*inTuple=*/false);
    skipSpaces();
    if (at_ != text_.size())
      fail("unexpected `" + text_.substr(at_) + "` after the argument");
    return a;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::InvalidArgument, "argument `" + text_ + "`: " + what);
  }
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  void skipSpaces() {
    while (at_ < text_.size() && text_[at_] == ' ')
      ++at_;
  }
  // The text up to the next `,` or `)` inside a tuple, the rest outside one.
  std::string word(bool inTuple) {
    const size_t start = at_;
    while (at_ < text_.size() && !(inTuple && (text_[at_] == ',' || text_[at_] == ')')))
      ++at_;
    std::string w = text_.substr(start, at_ - start);
    while (!w.empty() && w.back() == ' ')
      w.pop_back();
    return w;
  }

  KernelArgument argument(int depth, bool inTuple) {
    if (depth > kMaxTupleDepth)
      fail("tuples nest more than " + std::to_string(kMaxTupleDepth) + " deep");
    skipSpaces();
    if (peek() == '(')
      return tuple(depth, "");
    if (peek() == '@')
      return alias(inTuple);
    // A named tuple: an identifier, then `(`.
    size_t end = at_;
    while (end < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_'))
      ++end;
    if (end > at_ && end < text_.size() && text_[end] == '(' &&
        !std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      std::string class_name = text_.substr(at_, end - at_);
      at_ = end;
      return tuple(depth, class_name);
    }
    const size_t colon = text_.find(':', at_);
    const size_t stop = inTuple ? text_.find_first_of(",)", at_) : std::string::npos;
    if (colon != std::string::npos && (stop == std::string::npos || colon < stop)) {
      const std::string type = text_.substr(at_, colon - at_);
      if (type == "record") {
        at_ = colon + 1;
        return record(word(inTuple));
      }
      if (type == "pointer") { // numba's ffi.from_buffer(x) on the host: CPointer(dtype)
        at_ = colon + 1;
        const KernelArgument items = array(word(inTuple));
        try {
          return KernelArgument::pointer_to(*items.array);
        } catch (const Error& e) {
          fail(e.what());
        }
      }
      if (type == "enum") {
        at_ = colon + 1;
        const std::string member = word(inTuple);
        if (module_ == nullptr)
          fail("an Enum member needs the module that defines its class");
        try {
          return module_->enum_member(member);
        } catch (const Error& e) {
          fail(e.what());
        }
      }
      const std::string w = word(inTuple);
      if (!(w.size() > 4 && w.substr(w.size() - 4) == ".npy")) {
        at_ = colon + 1;
        return scalar(type, inTuple);
      }
      return array(w);
    }
    std::string path = word(inTuple);
    if (path.empty())
      fail("an argument is missing");
    return array(path);
  }

  KernelArgument tuple(int depth, const std::string& class_name) {
    int open = 0;
    size_t close = at_;
    for (; close < text_.size(); ++close) {
      open += text_[close] == '(' ? 1 : text_[close] == ')' ? -1 : 0;
      if (open == 0)
        break;
    }
    if (close == text_.size())
      fail("the tuple at `" + text_.substr(at_) + "` is not closed with `)`");
    ++at_; // (
    std::vector<KernelArgument> elements;
    std::vector<std::string> fields;
    skipSpaces();
    while (peek() != ')') {
      if (at_ >= text_.size())
        fail("the tuple is not closed with `)`");
      if (!class_name.empty()) {
        const size_t eq = text_.find('=', at_);
        if (eq == std::string::npos)
          fail("a field of the named tuple `" + class_name + "` is written NAME=ARG");
        std::string field = text_.substr(at_, eq - at_);
        for (char c : field)
          if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            fail("`" + field + "` is not a field name of the named tuple `" + class_name + "`");
        if (field.empty())
          fail("a field of the named tuple `" + class_name + "` has no name");
        fields.push_back(field);
        at_ = eq + 1;
      }
      elements.push_back(argument(depth + 1, /*inTuple=*/true));
      skipSpaces();
      if (peek() == ',') {
        ++at_;
        skipSpaces();
      } else if (peek() != ')') {
        fail("expected `,` or `)` in the tuple");
      }
    }
    ++at_; // )
    if (!class_name.empty() && elements.empty())
      fail("the named tuple `" + class_name + "` has no fields");
    return KernelArgument::tuple_of(std::move(elements), class_name, std::move(fields));
  }

  KernelArgument alias(bool inTuple) {
    ++at_; // @
    const std::string digits = word(inTuple);
    std::size_t i = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
      fail("`@` is followed by the position of an earlier argument, e.g. `@0`");
    if (i >= earlier_.size())
      fail("`@" + digits + "` names argument " + digits + ", which does not come before it");
    const KernelArgument& target = earlier_[i];
    if (target.kind != KernelArgument::Kind::Array && target.kind != KernelArgument::Kind::Record &&
        target.kind != KernelArgument::Kind::Pointer)
      fail("`@" + digits + "` names argument " + digits +
           ", which is not an array, a record or a pointer (an alias shares memory)");
    return target;
  }

  KernelArgument array(const std::string& path) {
    HostArray host = read_npy(path); // a 0-d file is a 0-d array, as numba types np.array(1.0)
    if (host.shape.size() < 2 || !fortranOrdered(path))
      return KernelArgument::of(arrays_.emplace_back(to_device(host)));
    // A Fortran-ordered file keeps its layout, as numba types such an array F: the elements
    // where the file has them (a C array of the reversed shape), seen transposed.
    std::vector<std::int64_t> reversed(host.shape.rbegin(), host.shape.rend());
    const AnyDeviceArray& storage = arrays_.emplace_back(
        host.record != nullptr ? AnyDeviceArray::allocate(*host.record, reversed)
                               : AnyDeviceArray::allocate(host.dtype, reversed));
    AnyDeviceArray& view = arrays_.emplace_back(storage.transpose());
    view.copy_from_host(host);
    return KernelArgument::of(view);
  }

  // Whether a .npy file's header says 'fortran_order': True (as np.save writes it).
  static bool fortranOrdered(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string start(4096, '\0');
    in.read(start.data(), static_cast<std::streamsize>(start.size()));
    start.resize(static_cast<size_t>(in.gcount()));
    return start.find("'fortran_order': True") != std::string::npos;
  }

  KernelArgument record(const std::string& path) {
    HostArray host = read_npy(path);
    if (host.record == nullptr || host.element_count() != 1)
      fail("a record is the only item of a .npy file of a structured dtype; " + path + " holds " +
           (host.record == nullptr ? "an array of " + std::string(dtype_name(host.dtype))
                                   : std::to_string(host.element_count()) + " records"));
    const AnyDeviceArray& records = arrays_.emplace_back(to_device(host));
    recordShapes_[&records] = host.shape;
    return KernelArgument::record(records);
  }

  template <typename T>
  KernelArgument integer(const std::string& text) {
    using Wide = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
    Wide v = 0;
    const char* begin = text.data();
    if (!text.empty() && text[0] == '+')
      ++begin;
    auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty() ||
        v < static_cast<Wide>(std::numeric_limits<T>::min()) ||
        v > static_cast<Wide>(std::numeric_limits<T>::max()))
      fail("`" + text + "` is not a value of its type");
    return KernelArgument::of(static_cast<T>(v));
  }

  double number(const std::string& text) const {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
      fail("`" + text + "` is not a number");
    return v;
  }

  // `text` as a `T` (float16, float32, float64): a finite number too large for it is an error,
  // not an infinity (write `inf` for one).
  template <typename T>
  T floating(const std::string& text, const char* type) const {
    const double v = number(text);
    const T converted = T(v);
    std::string lower = text;
    for (char& c : lower)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::isinf(static_cast<double>(converted)) && lower.find("inf") == std::string::npos)
      fail("`" + text + "` is out of " + type + "'s range (write inf for an infinity)");
    return converted;
  }

  KernelArgument scalar(const std::string& type, bool inTuple) {
    if (type == "complex64" || type == "complex128") {
      // `re,im`: the real part ends at the first comma.
      const size_t comma = text_.find(',', at_);
      if (comma == std::string::npos)
        fail("a complex scalar is written `" + type + ":RE,IM`");
      const std::string reText = text_.substr(at_, comma - at_);
      at_ = comma + 1;
      const std::string imText = word(inTuple);
      if (type == "complex64")
        return KernelArgument::of(std::complex<float>(floating<float>(reText, "complex64"),
                                                      floating<float>(imText, "complex64")));
      return KernelArgument::of(std::complex<double>(floating<double>(reText, "complex128"),
                                                     floating<double>(imText, "complex128")));
    }
    const std::string text = word(inTuple);
    if (type == "bool") {
      if (text == "true" || text == "True" || text == "1")
        return KernelArgument::of(true);
      if (text == "false" || text == "False" || text == "0")
        return KernelArgument::of(false);
      fail("a bool is true or false");
    }
    if (type == "int8")
      return integer<std::int8_t>(text);
    if (type == "int16")
      return integer<std::int16_t>(text);
    if (type == "int32")
      return integer<std::int32_t>(text);
    if (type == "int64")
      return integer<std::int64_t>(text);
    if (type == "uint8")
      return integer<std::uint8_t>(text);
    if (type == "uint16")
      return integer<std::uint16_t>(text);
    if (type == "uint32")
      return integer<std::uint32_t>(text);
    if (type == "uint64")
      return integer<std::uint64_t>(text);
    if (type == "float16")
      return KernelArgument::of(floating<float16>(text, "float16"));
    if (type == "float32")
      return KernelArgument::of(floating<float>(text, "float32"));
    if (type == "float64")
      return KernelArgument::of(floating<double>(text, "float64"));
    // numpy's datetime64[D]:COUNT, timedelta64[ms]:COUNT (the count of units, as
    // np.datetime64(...).astype(np.int64) gives it), or NaT.
    if (const std::optional<Dtype> d = dtype_named(type);
        d && (is_datetime_dtype(*d) || is_timedelta_dtype(*d))) {
      KernelArgument k = text == "NaT" ? KernelArgument::of(kNaT) : integer<std::int64_t>(text);
      k.dtype = *d;
      return k;
    }
    fail("`" + type +
         "` is not a scalar type (bool, int8..int64, uint8..uint64, float16, float32, float64, "
         "complex64, complex128, datetime64[UNIT], timedelta64[UNIT]), and the argument is not a "
         ".npy file, `record:x.npy`, `pointer:x.npy`, "
         "`enum:Class.member`, `@I` or a tuple");
  }

  const std::string& text_;
  std::deque<AnyDeviceArray>& arrays_;
  std::map<const AnyDeviceArray*, std::vector<std::int64_t>>& recordShapes_;
  const std::vector<KernelArgument>& earlier_;
  const Module* module_;
  size_t at_ = 0;
};

} // namespace

void RunArguments::writeArrays(const KernelArgument& a, const std::filesystem::path& folder,
                               const std::string& name) const {
  if (a.kind == KernelArgument::Kind::Array || a.kind == KernelArgument::Kind::Record ||
      a.kind == KernelArgument::Kind::Pointer) {
    HostArray host = a.array->copy_to_host();
    if (auto it = recordShapes_.find(a.array); it != recordShapes_.end())
      host.shape = it->second; // a record as the file held it (0-d, or one item)
    write_npy(folder / (name + ".npy"), host);
  } else if (a.kind == KernelArgument::Kind::Tuple) {
    for (size_t j = 0; j < a.tuple->elements.size(); ++j)
      writeArrays(a.tuple->elements[j], folder, name + "_" + std::to_string(j));
  }
}

RunArguments::RunArguments(const std::vector<std::string>& texts, const Module* module) {
  for (const std::string& text : texts)
    arguments_.push_back(ArgumentParser(text, arrays_, recordShapes_, arguments_, module).parse());
}

void RunArguments::writeBack(const std::filesystem::path& folder) const {
  std::filesystem::create_directories(folder);
  for (size_t i = 0; i < arguments_.size(); ++i)
    writeArrays(arguments_[i], folder, "arg" + std::to_string(i));
}

} // namespace pyk::driver
