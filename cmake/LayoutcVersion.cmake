# LAYOUTC_VERSION: the version of layoutc and of its CMake package (the
# project's version when it declares one); LAYOUTC_GIT_COMMIT: the source
# tree's commit at configure time, empty outside a git checkout. layoutc
# --version prints both.
if(PROJECT_VERSION)
  set(LAYOUTC_VERSION "${PROJECT_VERSION}")
else()
  set(LAYOUTC_VERSION 0.1.0)
endif()
set(LAYOUTC_GIT_COMMIT "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(
    COMMAND "${GIT_EXECUTABLE}" rev-parse --short=12 HEAD
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    OUTPUT_VARIABLE LAYOUTC_GIT_COMMIT
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET)
endif()
