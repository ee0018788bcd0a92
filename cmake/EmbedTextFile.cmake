# EmbedTextFile: writes a C++ source defining a function that returns a text file's contents.
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp -DNAMESPACE=ns -DFUNCTION=fn -DINCLUDE=decl.h
#        -P EmbedTextFile.cmake
# The text goes in as raw string literal pieces (each under compilers' literal-length limits).
file(READ "${INPUT}" text)
set(delimiter "pyk_embedded")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )${delimiter}\"")
endif()
string(LENGTH "${text}" length)
set(pieces "")
set(offset 0)
set(chunk 8000)
while(offset LESS length)
  string(SUBSTRING "${text}" ${offset} ${chunk} piece)
  string(APPEND pieces "    R\"${delimiter}(${piece})${delimiter}\"\n")
  math(EXPR offset "${offset} + ${chunk}")
endwhile()
if(pieces STREQUAL "")
  set(pieces "    \"\"\n")
endif()
set(content "// Generated from ${INPUT} by cmake/EmbedTextFile.cmake; do not edit.
#include \"${INCLUDE}\"

namespace ${NAMESPACE} {

std::string_view ${FUNCTION}() {
  static constexpr char text[] =
${pieces}      ;
  return std::string_view(text, sizeof(text) - 1);
}

} // namespace ${NAMESPACE}
")
# Only touch the output when it changes, so dependents do not rebuild for nothing.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
