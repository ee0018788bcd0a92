# pykInstall: what `cmake --install` puts under the prefix, relocatable (nothing of the build's
# paths is kept): bin/pykc; lib/libpyk_runtime.a (the runtime merged with every static library it
# needs, runtime/CMakeLists.txt) and lib/libpyk_runtime.so; include/pyk/ (the public headers,
# settings.def, which settings.hpp includes, and in pyk/base/ the shared vocabulary error.hpp,
# float16.hpp and version.hpp include) and include/pyk/support/ (the support headers generated
# code includes); lib/cmake/pyk/ (pykConfig.cmake with pyk::runtime, pyk::runtime_shared and
# pyk::pykc, its version file, pyk_add_kernels).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS pykc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pyk_runtime_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PYK_RUNTIME_BUNDLE} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/pyk
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp" PATTERN "*.def")
# The vocabulary pyk/error.hpp, float16.hpp and version.hpp include (compiler/base/), beside them.
install(FILES ${PROJECT_SOURCE_DIR}/compiler/base/Error.h ${PROJECT_SOURCE_DIR}/compiler/base/Float16.h
              ${PROJECT_BINARY_DIR}/compiler/base/Version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pyk/base)
install(FILES ${PYK_CUDA_SUPPORT_HEADER} ${PYK_CPU_SUPPORT_HEADER}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pyk/support)

set(PYK_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pyk)
set(PYK_SHARED_LIBRARY_NAME
    ${CMAKE_SHARED_LIBRARY_PREFIX}pyk_runtime${CMAKE_SHARED_LIBRARY_SUFFIX}.${PROJECT_VERSION})
set(PYK_SHARED_LIBRARY_SONAME
    ${CMAKE_SHARED_LIBRARY_PREFIX}pyk_runtime${CMAKE_SHARED_LIBRARY_SUFFIX}.${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/pykConfig.cmake.in ${PROJECT_BINARY_DIR}/cmake/pykConfig.cmake
  INSTALL_DESTINATION ${PYK_CONFIG_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
# A 0.x release changes its interfaces between minor versions.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/pykConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/pykConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/pykConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/pykAddKernels.cmake
        DESTINATION ${PYK_CONFIG_DIR})
