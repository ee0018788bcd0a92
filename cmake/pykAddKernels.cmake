# pyk_add_kernels: .pyk kernels compiled ahead of time, with the program (CMake's side of
# `pykc build`). Included by pyk's own CMakeLists.txt (add_subdirectory, FetchContent) and by the
# installed pykConfig.cmake (find_package), so both ways read the same.
#
#   pyk_add_kernels(<target>
#                   FILES <file.pyk>...
#                   [SIGNATURES "<kernel>(<type>, ...)"...]   numba's type names, e.g.
#                                                             "saxpy(float32, float32[::1], float32[::1])"
#                   [ARCHS <compute capability>...]           e.g. 80 90: a CUBIN each, PTX of the
#                                                             last for newer devices
#                   [INCLUDE_DIRS <dir>...]                   where `import helpers` looks after
#                                                             the file's own directory (the
#                                                             modules found are embedded)
#                   [LINK <file.cu>...]                       CUDA C++ compiled and linked with
#                                                             every kernel (numba's link=), for
#                                                             cuda.declare_device's functions
#                   [CPU <ON|OFF>]                            the CPU backend's code (default ON)
#                   [RUNTIME <static|shared>])                the runtime the target links
#
# For each file, at build time, `pykc build` types and compiles every signature named for one of
# its kernels, plus the signatures its decorators declare (`@cuda.jit("void(float32[:])")`), and
# writes, under ${CMAKE_CURRENT_BINARY_DIR}/pyk_kernels/<target>/:
#   <stem>.hpp      namespace <stem> { typed launch functions, one per signature:
#                     void saxpy(pyk::Dim3 grid, pyk::Dim3 block, const pyk::Stream& stream,
#                                float a, const pyk::DeviceArray<float, 1>& x, ...);
#                     (also without the stream); const pyk::Module& module(); }
#   <stem>.cpp      the module image: its source, the fatbins, the CPU entry points
#   <stem>_cpu.cpp  the CPU backend's code, compiled into <target> by its C++ compiler
# The target includes <stem>.hpp by name. At run time nothing is compiled for a signature built
# ahead: no host compiler, no NVRTC, no .pyk file is needed. Any other signature is compiled by
# the JIT where one is available, else the launch throws pyk::Error saying what was built ahead.
include_guard(GLOBAL)

function(pyk_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "CPU;RUNTIME" "FILES;SIGNATURES;ARCHS;INCLUDE_DIRS;LINK")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pyk_add_kernels(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pyk_add_kernels(${target}): no target named ${target}")
  endif()
  if(NOT arg_FILES)
    message(FATAL_ERROR "pyk_add_kernels(${target}): FILES names no .pyk file")
  endif()
  if(NOT DEFINED arg_CPU)
    set(arg_CPU ON)
  endif()
  if(NOT arg_RUNTIME)
    set(arg_RUNTIME static)
  endif()
  if(NOT arg_RUNTIME MATCHES "^(static|shared)$")
    message(FATAL_ERROR "pyk_add_kernels(${target}): RUNTIME is static or shared, not ${arg_RUNTIME}")
  endif()

  set(out ${CMAKE_CURRENT_BINARY_DIR}/pyk_kernels/${target})
  set(command build --out-dir ${out})
  foreach(signature IN LISTS arg_SIGNATURES)
    list(APPEND command --signature ${signature})
  endforeach()
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    get_filename_component(dir ${dir} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command --include-dir ${dir})
  endforeach()
  set(linked "")
  foreach(file IN LISTS arg_LINK)
    get_filename_component(file ${file} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command --link ${file})
    list(APPEND linked ${file})
  endforeach()
  if(arg_ARCHS)
    # The CUBINs of the architectures and the PTX go into one fatbin (the toolkit's fatbinary).
    find_package(CUDAToolkit QUIET)
    find_program(PYK_FATBINARY fatbinary HINTS ${CUDAToolkit_BIN_DIR} /usr/local/cuda/bin)
    if(NOT PYK_FATBINARY)
      message(FATAL_ERROR "pyk_add_kernels(${target}): ARCHS needs the CUDA toolkit's fatbinary "
                          "(and NVRTC) at build time; none found (set PYK_FATBINARY)")
    endif()
    list(APPEND command --fatbinary ${PYK_FATBINARY})
    foreach(arch IN LISTS arg_ARCHS)
      list(APPEND command --arch ${arch})
    endforeach()
  endif()
  if(NOT arg_CPU)
    list(APPEND command --no-cpu)
  endif()

  set(outputs ${out}/pyk_cpu_support.h)
  set(sources "")
  set(cpu_sources "")
  set(inputs "")
  foreach(file IN LISTS arg_FILES)
    get_filename_component(path ${file} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    get_filename_component(stem ${file} NAME_WE)
    string(MAKE_C_IDENTIFIER ${stem} stem)
    list(APPEND inputs ${path})
    list(APPEND outputs ${out}/${stem}.hpp ${out}/${stem}.cpp ${out}/${stem}_cpu.cpp)
    list(APPEND sources ${out}/${stem}.hpp ${out}/${stem}.cpp ${out}/${stem}_cpu.cpp)
    list(APPEND cpu_sources ${out}/${stem}_cpu.cpp)
  endforeach()
  list(JOIN arg_FILES ", " names)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND pyk::pykc ${command} ${inputs}
    DEPENDS ${inputs} ${linked} pyk::pykc
    COMMENT "pykc build: ${names} for ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${sources})
  target_include_directories(${target} PRIVATE ${out})
  # The CPU code as the JIT compiles it (-O3, no errno from math, copy loops kept as loops rather
  # than memcpy calls), quietly: it is generated.
  set_source_files_properties(${cpu_sources} PROPERTIES COMPILE_OPTIONS
    "-O3;-fno-math-errno;$<$<CXX_COMPILER_ID:GNU>:-fno-tree-loop-distribute-patterns>;-w"
                                                        SKIP_UNITY_BUILD_INCLUSION ON)
  if(arg_RUNTIME STREQUAL "shared")
    target_link_libraries(${target} PRIVATE pyk::runtime_shared)
  else()
    target_link_libraries(${target} PRIVATE pyk::runtime)
  endif()
  target_compile_features(${target} PRIVATE cxx_std_20)
endfunction()
