# Install rules and the CMake package for layoutc. Included by the top-level
# CMakeLists.txt after the layoutc and layout_rt targets exist.
#
#   cmake --install build --prefix <P>
# installs
#   <P>/bin/layoutc
#   <P>/lib/liblayout_rt.a
#   <P>/include/layout_rt/*.h
#   <P>/lib/cmake/layoutc/{layoutcConfig,layoutcConfigVersion,layoutcTargets*,
#                          LayoutcAddLibrary}.cmake
# and find_package(layoutc CONFIG REQUIRED) then provides the imported
# targets layoutc::layoutc (executable) and layoutc::layout_rt (static
# library with its headers, Threads::Threads and m) and the function
# layoutc_add_library() (cmake/LayoutcAddLibrary.cmake).

include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The same names inside this tree as in an installed package, so that
# layoutc_add_library() works here too.
add_executable(layoutc::layoutc ALIAS layoutc)
add_library(layoutc::layout_rt ALIAS layout_rt)
add_library(layoutc::layout_rt_cuda_emu ALIAS layout_rt_cuda_emu)
include("${CMAKE_CURRENT_LIST_DIR}/LayoutcAddLibrary.cmake")

include("${CMAKE_CURRENT_LIST_DIR}/LayoutcVersion.cmake")
set(LAYOUTC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/layoutc" CACHE
    STRING "Where layoutcConfig.cmake is installed, relative to the prefix")
mark_as_advanced(LAYOUTC_INSTALL_CMAKEDIR)

# layoutc links libMLIR/libLLVM from LLVM's own lib directory
# (/usr/lib/llvm-22/lib), which is not on the loader's path: keep the
# directories it was linked against in the installed binary's RUNPATH.
set_target_properties(layoutc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

# layout_rt_cuda_emu: the host emulation's include path, for building
# --target=cuda output without nvcc (runtime/cuda/ installs the headers).
install(TARGETS layoutc layout_rt layout_rt_cuda_emu
  EXPORT layoutcTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# layout_rt's INSTALL_INTERFACE include directory is "include".
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/layout_rt"
  DESTINATION include
  FILES_MATCHING PATTERN "*.h")
# The tuning presets (docs/tuning.md), where an installed layoutc looks for
# them: <prefix>/share/layoutc/tuning.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/tuning/"
  DESTINATION share/layoutc/tuning
  FILES_MATCHING PATTERN "*.json")
install(EXPORT layoutcTargets
  NAMESPACE layoutc::
  FILE layoutcTargets.cmake
  DESTINATION "${LAYOUTC_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/layoutcConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/layoutcConfig.cmake"
  INSTALL_DESTINATION "${LAYOUTC_INSTALL_CMAKEDIR}")
# 0.x: a different minor version may change the generated-code ABI.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/layoutcConfigVersion.cmake"
  VERSION "${LAYOUTC_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cmake/layoutcConfig.cmake"
  "${PROJECT_BINARY_DIR}/cmake/layoutcConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/LayoutcAddLibrary.cmake"
  DESTINATION "${LAYOUTC_INSTALL_CMAKEDIR}")
