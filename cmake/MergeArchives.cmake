# MergeArchives: one static archive holding the members of several (GNU ar's MRI script).
# Usage: cmake -DAR=ar -DOUTPUT=libx.a "-DARCHIVES=a.a;b.a" -P MergeArchives.cmake
set(script "CREATE ${OUTPUT}.tmp\n")
foreach(archive IN LISTS ARCHIVES)
  string(APPEND script "ADDLIB ${archive}\n")
endforeach()
string(APPEND script "SAVE\nEND\n")
file(REMOVE ${OUTPUT}.tmp)
file(WRITE ${OUTPUT}.mri "${script}")
execute_process(COMMAND ${AR} -M INPUT_FILE ${OUTPUT}.mri RESULT_VARIABLE failed
                ERROR_VARIABLE errors)
if(failed)
  message(FATAL_ERROR "${AR} -M could not merge ${ARCHIVES}: ${errors}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
