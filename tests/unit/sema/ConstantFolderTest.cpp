// ConstantFolderTest: module-level constants folded with Python's (and numpy's) semantics.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

// The folded value of `X = <expr>` as "repr : type".
std::string fold(const std::string& expr, const std::string& prelude = "") {
  Resolved r("import math\nimport numpy as np\nimport numba\n" + prelude + "X = " + expr + "\n");
  EXPECT_TRUE(r.parsedOk()) << r.errors();
  return r.constantText("X");
}

TEST(ConstantFolder, Literals) {
  EXPECT_EQ(fold("16"), "16 : int64");
  EXPECT_EQ(fold("0.25"), "0.25 : float64");
  EXPECT_EQ(fold("True"), "True : boolean");
  EXPECT_EQ(fold("None"), "None : none");
  EXPECT_EQ(fold("'abc'"), "'abc' : str");
  EXPECT_EQ(fold("2j"), "2j : complex128");
  EXPECT_EQ(fold("(16, 16)"), "(16, 16) : UniTuple(int64, 2)");
  EXPECT_EQ(fold("(1, 2.5)"), "(1, 2.5) : Tuple((int64, float64))");
  EXPECT_EQ(fold("(1,)"), "(1,) : UniTuple(int64, 1)");
  EXPECT_EQ(fold("2**63"), "9223372036854775808 : uint64");
  EXPECT_EQ(fold("1e16"), "1e+16 : float64");
  EXPECT_EQ(fold("0.0001"), "0.0001 : float64");
  EXPECT_EQ(fold("0.00001"), "1e-05 : float64");
}

TEST(ConstantFolder, PythonArithmetic) {
  EXPECT_EQ(fold("7 // 2"), "3 : int64");
  EXPECT_EQ(fold("-7 // 2"), "-4 : int64");
  EXPECT_EQ(fold("-7 % 3"), "2 : int64");
  EXPECT_EQ(fold("7 % -3"), "-2 : int64");
  EXPECT_EQ(fold("7 / 2"), "3.5 : float64");
  EXPECT_EQ(fold("4 / 2"), "2.0 : float64");
  EXPECT_EQ(fold("2 ** 10"), "1024 : int64");
  EXPECT_EQ(fold("2 ** -1"), "0.5 : float64");
  EXPECT_EQ(fold("-7.5 // 2"), "-4.0 : float64");
  EXPECT_EQ(fold("-7.5 % 2"), "0.5 : float64");
  EXPECT_EQ(fold("5.0 % -3"), "-1.0 : float64");
  EXPECT_EQ(fold("1 << 4 | 3"), "19 : int64");
  EXPECT_EQ(fold("-16 >> 2"), "-4 : int64");
  EXPECT_EQ(fold("~5 ^ 3 & 6"), "-8 : int64");
  EXPECT_EQ(fold("-(3) + +2"), "-1 : int64");
  EXPECT_EQ(fold("True + True"), "2 : int64");
  EXPECT_EQ(fold("1 + 2.5"), "3.5 : float64");
  EXPECT_EQ(fold("(1 + 2j) * 2j"), "(-4+2j) : complex128");
  EXPECT_NE(fold("(-8) ** 0.5"), "<not constant>");
  EXPECT_EQ(fold("'ab' + 'cd'"), "'abcd' : str");
  EXPECT_EQ(fold("(1, 2) + (3,)"), "(1, 2, 3) : UniTuple(int64, 3)");
  EXPECT_EQ(fold("(0,) * 3"), "(0, 0, 0) : UniTuple(int64, 3)");
}

TEST(ConstantFolder, ComparisonsAndBooleans) {
  EXPECT_EQ(fold("1 < 2 < 3"), "True : boolean");
  EXPECT_EQ(fold("1 < 3 < 2"), "False : boolean");
  EXPECT_EQ(fold("0 or 5"), "5 : int64");
  EXPECT_EQ(fold("3 and 0.0"), "0.0 : float64");
  EXPECT_EQ(fold("not 0"), "True : boolean");
  EXPECT_EQ(fold("1 if 2 > 1 else 1 // 0"), "1 : int64");
  EXPECT_EQ(fold("None is None"), "True : boolean");
  EXPECT_EQ(fold("2 in (1, 2)"), "True : boolean");
  EXPECT_EQ(fold("(1, 2) < (1, 3)"), "True : boolean");
  EXPECT_EQ(fold("1 == 1.0"), "True : boolean");
}

TEST(ConstantFolder, NamesInOrder) {
  Resolved r("TPB = 16\nshasize = TPB + 2\ncoeff = 0.25\nN = (TPB, shasize)\n");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.constantText("shasize"), "18 : int64");
  EXPECT_EQ(r.constantText("N"), "(16, 18) : UniTuple(int64, 2)");
  // Unpacking assigns each name its element.
  Resolved u("A, (B, C) = 1, (2.5, 'x')\n");
  EXPECT_EQ(u.constantText("A"), "1 : int64");
  EXPECT_EQ(u.constantText("B"), "2.5 : float64");
  EXPECT_EQ(u.constantText("C"), "'x' : str");
  Resolved ann("W: int = 3\n");
  EXPECT_EQ(ann.constantText("W"), "3 : int64");
}

TEST(ConstantFolder, ReassignedOrConditionalNamesAreNotConstants) {
  // The module's code runs in order (ModuleExecution): a name assigned twice, by a loop or by an
  // augmented assignment has its last value; one assigned under a test that needs the program's
  // run, through `global`, or from a name not assigned yet (Python's NameError) is no constant.
  Resolved r("A = 1\nA = 2\nif flag():\n    B = 3\nfor i in range(3):\n    pass\nC = 1\nC += 1\n"
             "def f():\n    global D\n    D = 2\nD = 5\nE = F\nF = 1\n");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.constantText("A"), "2 : int64");
  EXPECT_EQ(r.constantText("i"), "2 : int64");
  EXPECT_EQ(r.constantText("C"), "2 : int64");
  for (const char* name : {"B", "D", "E"})
    EXPECT_EQ(r.constantText(name), "<not constant>") << name;
  EXPECT_EQ(r.constantText("F"), "1 : int64");
  EXPECT_TRUE(r.symbols().find("host value B: it is assigned inside an `if` statement at module "
                               "level whose test is not a compile-time constant") !=
              std::string::npos)
      << r.symbols();
}

TEST(ConstantFolder, AnIfWhoseTestFoldsRunsOneBranch) {
  Resolved r("X = 2\nif X > 1:\n    B = 3\nelse:\n    B = 4\nif False:\n    C = 1\n");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.constantText("B"), "3 : int64");
  EXPECT_EQ(r.constantText("C"), "<not constant>"); // never assigned
}

TEST(ConstantFolder, Builtins) {
  EXPECT_EQ(fold("int(3.9)"), "3 : int64");
  EXPECT_EQ(fold("int(-3.9)"), "-3 : int64");
  EXPECT_EQ(fold("float(2)"), "2.0 : float64");
  EXPECT_EQ(fold("bool(())"), "False : boolean");
  EXPECT_EQ(fold("abs(-4)"), "4 : int64");
  EXPECT_EQ(fold("abs(3+4j)"), "5.0 : float64");
  EXPECT_EQ(fold("min(3, 1, 2)"), "1 : int64");
  EXPECT_EQ(fold("max((3, 7.5, 2))"), "7.5 : float64");
  EXPECT_EQ(fold("round(2.5)"), "2 : int64");
  EXPECT_EQ(fold("round(3.5)"), "4 : int64");
  EXPECT_EQ(fold("round(2.675, 2)"), "2.67 : float64");
  EXPECT_EQ(fold("round(1234, -2)"), "1200 : int64");
  EXPECT_EQ(fold("len((1, 2, 3))"), "3 : int64");
  EXPECT_EQ(fold("divmod(-7, 2)"), "(-4, 1) : UniTuple(int64, 2)");
  EXPECT_EQ(fold("pow(2, 3)"), "8 : int64");
  EXPECT_EQ(fold("(1, 2, 3)[-1]"), "3 : int64");
  EXPECT_EQ(fold("(1, 2, 3, 4)[1:3]"), "(2, 3) : UniTuple(int64, 2)");
  EXPECT_EQ(fold("(1, 2, 3, 4)[::-2]"), "(4, 2) : UniTuple(int64, 2)");
}

TEST(ConstantFolder, MathAndNumpy) {
  EXPECT_EQ(fold("math.pi"), "3.141592653589793 : float64");
  EXPECT_EQ(fold("2 * math.pi"), "6.283185307179586 : float64");
  EXPECT_EQ(fold("math.inf"), "inf : float64");
  EXPECT_EQ(fold("math.sqrt(4.0)"), "2.0 : float64");
  EXPECT_EQ(fold("math.floor(2.5)"), "2 : int64");
  EXPECT_EQ(fold("math.log(8, 2)"), "3.0 : float64");
  EXPECT_EQ(fold("np.pi"), "3.141592653589793 : float64");
  EXPECT_EQ(fold("np.float32(0.1)"), "0.1 : float32");
  EXPECT_EQ(fold("np.float32(0.1) * 2"), "0.2 : float32");
  EXPECT_EQ(fold("np.float32(1) + 0.5"), "1.5 : float32");
  EXPECT_EQ(fold("np.float32(1) + np.float64(0.5)"), "1.5 : float64");
  EXPECT_EQ(fold("np.int32(7) // 2"), "3 : int32");
  EXPECT_EQ(fold("np.int32(2147483647) + 1"), "-2147483648 : int32");
  EXPECT_EQ(fold("np.int32(5) / 2"), "2.5 : float64");
  EXPECT_EQ(fold("np.uint8(200) + np.int8(1)"), "201 : int16");
  EXPECT_EQ(fold("numba.int32(3)"), "3 : int32");
  EXPECT_EQ(fold("numba.float64(1)"), "1.0 : float64");
  EXPECT_EQ(fold("np.float32"), "float32 : type");
  EXPECT_EQ(fold("np.sqrt(np.float32(4))"), "2.0 : float32");
  EXPECT_EQ(fold("np.bool_(3)"), "True : boolean");
}

TEST(ConstantFolder, NumpyArrayLiterals) {
  EXPECT_EQ(fold("np.array([0.25, 0.5, 0.25], dtype=np.float32)"),
            "array([0.25, 0.5, 0.25], dtype=float32) : array(float32, 1d, C) shape (3,)");
  EXPECT_EQ(fold("np.array([[1, 2], [3, 4]])"),
            "array([[1, 2], [3, 4]], dtype=int64) : array(int64, 2d, C) shape (2, 2)");
  EXPECT_EQ(fold("np.array([1, 2.5])"),
            "array([1.0, 2.5], dtype=float64) : array(float64, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.array((1, 2), 'f4')"),
            "array([1.0, 2.0], dtype=float32) : array(float32, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.array([1, 2], dtype=float)"),
            "array([1.0, 2.0], dtype=float64) : array(float64, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.array([True, False])"),
            "array([True, False], dtype=bool) : array(bool, 1d, C) shape (2,)");
  EXPECT_EQ(fold("A.shape", "A = np.array([[1, 2, 3], [4, 5, 6]])\n"),
            "(2, 3) : UniTuple(int64, 2)");
  EXPECT_EQ(fold("len(A)", "A = np.array([[1, 2, 3], [4, 5, 6]])\n"), "2 : int64");
}

TEST(ConstantFolder, NumpyArraysBuiltAtImport) {
  EXPECT_EQ(fold("np.arange(4)"),
            "array([0, 1, 2, 3], dtype=int64) : array(int64, 1d, C) shape (4,)");
  EXPECT_EQ(fold("np.arange(1, 2, 0.25)"),
            "array([1.0, 1.25, 1.5, 1.75], dtype=float64) : array(float64, 1d, C) shape (4,)");
  EXPECT_EQ(fold("np.arange(5, 1, -2, dtype=np.int8)"),
            "array([5, 3], dtype=int8) : array(int8, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.zeros((2, 2), dtype=np.int32) + 1"),
            "array([[1, 1], [1, 1]], dtype=int32) : array(int32, 2d, C) shape (2, 2)");
  EXPECT_EQ(fold("np.ones(2) * 3"),
            "array([3.0, 3.0], dtype=float64) : array(float64, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.full(3, 7)"),
            "array([7, 7, 7], dtype=int64) : array(int64, 1d, C) shape (3,)");
  EXPECT_EQ(fold("np.linspace(0, 1, 3, dtype=np.float32)"),
            "array([0.0, 0.5, 1.0], dtype=float32) : array(float32, 1d, C) shape (3,)");
  // numpy's promotion: a Python scalar is weak (the array keeps float32), a higher kind is not.
  EXPECT_EQ(fold("np.arange(2, dtype=np.float32) * 2.5"),
            "array([0.0, 2.5], dtype=float32) : array(float32, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.arange(3) / 2"),
            "array([0.0, 0.5, 1.0], dtype=float64) : array(float64, 1d, C) shape (3,)");
  EXPECT_EQ(fold("(np.arange(2, dtype=np.complex64) + 1j) / 2j"),
            "array([(0.5+0j), (0.5-0.5j)], dtype=complex64) : array(complex64, 1d, C) shape (2,)");
  EXPECT_EQ(fold("-np.arange(2) + np.arange(2)"),
            "array([0, 0], dtype=int64) : array(int64, 1d, C) shape (2,)");
  EXPECT_EQ(fold("np.asfortranarray(np.arange(4, dtype=np.int32).reshape(2, 2)).astype(np.int16)"),
            "array([[0, 1], [2, 3]], dtype=int16) : array(int16, 2d, C) shape (2, 2)");
}

TEST(ConstantFolder, HostValuesAreNotErrors) {
  Resolved r("import numpy as np\nrng = np.random.default_rng(1)\nA = rng.random(10)\n"
             "L = [1, 2]\nD = {}\n");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.constantText("rng"), "<not constant>");
  EXPECT_EQ(r.constantText("A"), "<not constant>");
  EXPECT_EQ(r.constantText("L"), "<not constant>");
}

TEST(ConstantFolder, DivisionByZeroIsAnErrorAtTheOperator) {
  Resolved r("N = 4\nX = 1 + N // (N - 4)\nY = 1.0 / 0\nZ = 5 % 0\n");
  EXPECT_TRUE(r.hasMessage("2:9: integer division by zero in the constant expression"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("3:5: float division by zero in the constant expression")) << r.errors();
  EXPECT_TRUE(r.hasMessage("4:5: integer modulo by zero in the constant expression")) << r.errors();
  EXPECT_EQ(r.constantText("X"), "<not constant>");
}

TEST(ConstantFolder, OtherPythonErrors) {
  Resolved r("import math\nimport numpy as np\nA = math.sqrt(-1)\nB = (1, 2)[5]\n"
             "C = np.array([[1, 2], [3]])\nD = np.int8(300)\nE = 1 << -1\n");
  EXPECT_TRUE(r.hasMessage("3:5: math domain error in `math.sqrt`")) << r.errors();
  EXPECT_TRUE(r.hasMessage("4:5: tuple index out of range")) << r.errors();
  EXPECT_TRUE(r.hasMessage("5:23: array literal is not rectangular: expected 2 elements, found 1"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("6:5: 300 is out of range for `int8`")) << r.errors();
  EXPECT_TRUE(r.hasMessage("7:5: negative shift count")) << r.errors();
}

TEST(ConstantFolder, OverflowIsNotConstant) {
  Resolved r("A = 2 ** 64\nB = 2 ** 62 * 8\nC = -(2**63)\n");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.constantText("A"), "<not constant>");
  EXPECT_EQ(r.constantText("B"), "<not constant>");
  EXPECT_EQ(r.constantText("C"), "-9223372036854775808 : int64");
}

} // namespace
} // namespace pyk::test
