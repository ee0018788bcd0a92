# pyk_add_generated_page: the build side of a program that writes a page of docs/ from pyk's own
# tables (its command line: compiler/base/GeneratedPage.h).
#   pyk_add_generated_page(TOOL PAGE TEST)
# TOOL, an executable target, is built with everything only where its test runs (a project
# adding pyk does not need it); TOOL_update rewrites PAGE (relative to the source tree; commit
# what it writes); the CTest TEST (label unit) fails while the checked-in PAGE differs, naming
# that target. compiler/ and runtime/ are added before the top level calls enable_testing(), so
# the test is declared at the end of the top-level directory, where CTest finds it.
include_guard(GLOBAL)

function(pyk_add_generated_page tool page test)
  if(NOT PYK_BUILD_TESTS)
    set_target_properties(${tool} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  add_custom_target(${tool}_update
    COMMAND ${tool} --output ${PROJECT_SOURCE_DIR}/${page}
    COMMENT "Regenerating ${page}"
    VERBATIM)
  if(PYK_BUILD_TESTS)
    # A deferred call reads its variables when it runs, after this function: EVAL puts the
    # values in now.
    cmake_language(EVAL CODE "
      cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL add_test NAME [[${test}]]
                     COMMAND [[${tool}]] --check [[${PROJECT_SOURCE_DIR}/${page}]])
      cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL set_tests_properties
                     [[${test}]] PROPERTIES LABELS unit TIMEOUT 60)")
  endif()
endfunction()
