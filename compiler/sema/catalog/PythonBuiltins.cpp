// PythonBuiltins: Python's builtin names, and which of them numba.cuda supports in device code.
#include "sema/catalog/PythonBuiltins.h"

#include <algorithm>

namespace pyk::sema {

namespace {

const char* const kDeviceBuiltins[] = {
    "range", "len", "min", "max", "abs", "round", "int", "float", "bool", "complex", "print",
    "enumerate", "zip", "divmod", "pow", "slice", "tuple", "isinstance", "hash", "iter", "next",
    "sum", "any", "all",
    // Exceptions, for `raise` (effective with debug=True).
    "Exception", "ArithmeticError", "AssertionError", "FloatingPointError", "IndexError",
    "KeyError", "LookupError", "NotImplementedError", "OverflowError", "RuntimeError",
    "StopIteration", "TypeError", "ValueError", "ZeroDivisionError"};

const char* const kOtherPythonBuiltins[] = {"aiter",
                                            "anext",
                                            "ascii",
                                            "bin",
                                            "breakpoint",
                                            "bytearray",
                                            "bytes",
                                            "callable",
                                            "chr",
                                            "classmethod",
                                            "compile",
                                            "delattr",
                                            "dict",
                                            "dir",
                                            "eval",
                                            "exec",
                                            "filter",
                                            "format",
                                            "frozenset",
                                            "getattr",
                                            "globals",
                                            "hasattr",
                                            "help",
                                            "hex",
                                            "id",
                                            "input",
                                            "issubclass",
                                            "list",
                                            "locals",
                                            "map",
                                            "memoryview",
                                            "object",
                                            "oct",
                                            "open",
                                            "ord",
                                            "property",
                                            "repr",
                                            "reversed",
                                            "set",
                                            "setattr",
                                            "sorted",
                                            "staticmethod",
                                            "str",
                                            "super",
                                            "type",
                                            "vars",
                                            "__import__",
                                            "__name__",
                                            "__file__",
                                            "__doc__",
                                            "__builtins__",
                                            "exit",
                                            "quit",
                                            "NotImplemented",
                                            "Ellipsis",
                                            "BaseException",
                                            "KeyboardInterrupt",
                                            "SystemExit",
                                            "AttributeError",
                                            "BufferError",
                                            "EOFError",
                                            "ImportError",
                                            "ModuleNotFoundError",
                                            "MemoryError",
                                            "NameError",
                                            "OSError",
                                            "IOError",
                                            "EnvironmentError",
                                            "RecursionError",
                                            "ReferenceError",
                                            "SyntaxError",
                                            "SystemError",
                                            "UnboundLocalError",
                                            "UnicodeError",
                                            "Warning",
                                            "UserWarning",
                                            "DeprecationWarning",
                                            "RuntimeWarning",
                                            "FileNotFoundError",
                                            "PermissionError",
                                            "TimeoutError",
                                            "ConnectionError",
                                            "GeneratorExit"};

} // namespace

bool isDeviceBuiltin(std::string_view name) {
  return std::find(std::begin(kDeviceBuiltins), std::end(kDeviceBuiltins), name) !=
         std::end(kDeviceBuiltins);
}

bool isPythonBuiltin(std::string_view name) {
  return isDeviceBuiltin(name) ||
         std::find(std::begin(kOtherPythonBuiltins), std::end(kOtherPythonBuiltins), name) !=
             std::end(kOtherPythonBuiltins);
}

const std::vector<std::string>& deviceBuiltinNames() {
  static const std::vector<std::string> names(std::begin(kDeviceBuiltins),
                                              std::end(kDeviceBuiltins));
  return names;
}

} // namespace pyk::sema
