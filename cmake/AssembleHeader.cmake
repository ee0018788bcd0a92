# AssembleHeader: writes one self-contained header from an umbrella header and the project-local
# headers it includes, so that it can be embedded and handed to a compiler as a single file.
# Usage: cmake -DINPUT=umbrella.h -DOUTPUT=assembled.h -P AssembleHeader.cmake
# Each `#include "name"` line is replaced by the text of the file it names (resolved against the
# including file's folder, as the preprocessor resolves quoted includes), recursively and once each:
# the inlined file loses its `#pragma once`, and a later include of a file already inlined is
# dropped, as `#pragma once` would have it. System includes (`#include <...>`) stay as they are.
# A quoted include inside #if/#ifdef/#ifndef is an error: inlining it once, unconditionally, is not
# what the preprocessor would do with it.
cmake_minimum_required(VERSION 3.25)

set(pyk_include_regex "\n[ \t]*#[ \t]*include[ \t]*\"([^\"\n]*)\"[^\n]*")

# Sets `out_var` to the text of `file` with its quoted includes inlined (recursively), without a
# trailing newline. Files inlined so far are listed in the global property PYK_INLINED_FILES.
function(pyk_assemble file is_root out_var)
  set_property(GLOBAL APPEND PROPERTY PYK_INLINED_FILES "${file}")
  get_filename_component(dir "${file}" DIRECTORY)
  file(READ "${file}" text)
  # A newline in front, so that every line, the first too, starts after one.
  set(rest "\n${text}")
  if(NOT is_root)
    string(REGEX REPLACE "\n[ \t]*#[ \t]*pragma[ \t]+once[ \t]*\n" "\n" rest "${rest}")
  endif()
  set(out "")
  set(depth 0)
  while(TRUE)
    string(REGEX MATCH "${pyk_include_regex}" directive "${rest}")
    if(directive STREQUAL "")
      break()
    endif()
    set(name "${CMAKE_MATCH_1}")
    string(FIND "${rest}" "${directive}" at)
    string(LENGTH "${directive}" length)
    math(EXPR after "${at} + ${length}")
    string(SUBSTRING "${rest}" 0 ${at} before)
    string(SUBSTRING "${rest}" ${after} -1 rest)
    string(APPEND out "${before}")

    string(REGEX MATCHALL "\n[ \t]*#[ \t]*if" opened "${before}")
    string(REGEX MATCHALL "\n[ \t]*#[ \t]*endif" closed "${before}")
    list(LENGTH opened opened)
    list(LENGTH closed closed)
    math(EXPR depth "${depth} + ${opened} - ${closed}")
    if(NOT depth EQUAL 0)
      message(FATAL_ERROR "${file}: #include \"${name}\" is inside #if; a project-local include "
                          "must be unconditional to be inlined")
    endif()

    get_filename_component(path "${name}" ABSOLUTE BASE_DIR "${dir}")
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "${file}: #include \"${name}\": no such file beside it (${path})")
    endif()
    get_property(inlined GLOBAL PROPERTY PYK_INLINED_FILES)
    if(NOT "${path}" IN_LIST inlined)
      pyk_assemble("${path}" FALSE part)
      string(APPEND out "\n// (inlined) #include \"${name}\"\n${part}\n")
    endif()
  endwhile()
  string(APPEND out "${rest}")
  string(SUBSTRING "${out}" 1 -1 out)
  string(REGEX REPLACE "\n+$" "" out "${out}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

get_filename_component(input "${INPUT}" ABSOLUTE)
pyk_assemble("${input}" TRUE content)
string(APPEND content "\n")
# Only touch the output when it changes, so dependents do not rebuild for nothing.
file(WRITE "${OUTPUT}.new" "${content}")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
