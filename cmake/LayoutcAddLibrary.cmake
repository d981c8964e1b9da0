# layoutc_add_library(): compile layout programs into a static library at
# build time, in the spirit of Halide's add_halide_library().
#
#   layoutc_add_library(<name>
#     SOURCES <prog.mlir>...     # layout programs; relative to the current source dir
#     [MCPU <cpu>]               # --mcpu=<cpu>  (layoutc's default: x86-64-v3)
#     [MATTR <attrs>]            # --mattr=<attrs>, LLVM spelling (+avx512f,-fma)
#     [OPT_LEVEL 0|1|2|3]        # -O<n>         (layoutc's default: -O3)
#     [FLAGS <flag>...])         # any other layoutc flags, passed last
#
# For every source <dir>/<stem>.mlir, a custom command runs
#   layoutc <dir>/<stem>.mlir --emit=obj,header -o <binary-dir>/<name>/<stem> <flags>
# at build time (re-run when the program or the layoutc executable changes),
# producing <stem>.o and <stem>.h. <name> becomes a STATIC library of the
# objects with <binary-dir>/<name> as a PUBLIC include directory and
# layoutc::layout_rt linked PUBLIC, so a consumer only needs
#   target_link_libraries(app PRIVATE <name>)
# and #include "<stem>.h". Stems must be unique within one library.
#
# Target properties set on <name>: LAYOUTC_HEADER_DIR (the include
# directory) and LAYOUTC_HEADERS (the generated headers).
#
# Works with an installed layoutc (find_package(layoutc CONFIG)) and inside
# layoutc's own source tree, where layoutc::layoutc and layoutc::layout_rt
# are aliases of the build targets.

include_guard(GLOBAL)

function(layoutc_add_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MCPU;MATTR;OPT_LEVEL"
                        "SOURCES;FLAGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "layoutc_add_library(${name}): unexpected arguments "
                        "'${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "layoutc_add_library(${name}): no value given for "
                        "${ARG_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "layoutc_add_library(${name}): SOURCES is required")
  endif()
  foreach(required IN ITEMS layoutc::layoutc layoutc::layout_rt)
    if(NOT TARGET ${required})
      message(FATAL_ERROR
        "layoutc_add_library(${name}): target ${required} does not exist; "
        "call find_package(layoutc CONFIG REQUIRED) first")
    endif()
  endforeach()

  # In layoutc's own tree layoutc::layoutc is an ALIAS; name the real target
  # so that COMMAND and DEPENDS get both the target-level dependency and the
  # file-level one. An imported layoutc::layoutc resolves to its location.
  get_target_property(layoutc_exe layoutc::layoutc ALIASED_TARGET)
  if(NOT layoutc_exe)
    set(layoutc_exe layoutc::layoutc)
  endif()

  set(flags "")
  if(DEFINED ARG_OPT_LEVEL)
    if(NOT ARG_OPT_LEVEL MATCHES "^[0-3]$")
      message(FATAL_ERROR "layoutc_add_library(${name}): OPT_LEVEL must be "
                          "0, 1, 2 or 3, got '${ARG_OPT_LEVEL}'")
    endif()
    list(APPEND flags "-O${ARG_OPT_LEVEL}")
  endif()
  if(DEFINED ARG_MCPU)
    list(APPEND flags "--mcpu=${ARG_MCPU}")
  endif()
  if(DEFINED ARG_MATTR)
    list(APPEND flags "--mattr=${ARG_MATTR}")
  endif()
  list(APPEND flags ${ARG_FLAGS})

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  # The include directory must exist when the consumer is configured.
  file(MAKE_DIRECTORY "${out_dir}")

  set(objects "")
  set(headers "")
  set(stems "")
  foreach(source IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               NORMALIZE OUTPUT_VARIABLE source_path)
    cmake_path(GET source_path STEM LAST_ONLY stem)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "layoutc_add_library(${name}): two sources named "
                          "'${stem}'; generated files would collide")
    endif()
    list(APPEND stems "${stem}")

    set(base "${out_dir}/${stem}")
    add_custom_command(
      OUTPUT "${base}.o" "${base}.h"
      COMMAND ${layoutc_exe} "${source_path}" --emit=obj,header -o "${base}"
              ${flags}
      DEPENDS "${source_path}" ${layoutc_exe}
      COMMENT "layoutc: compiling ${source} for ${name}"
      VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND objects "${base}.o")
    list(APPEND headers "${base}.h")
  endforeach()

  # Objects listed as sources are archived as they are (EXTERNAL_OBJECT);
  # the headers are listed so that the custom commands belong to <name>.
  set_source_files_properties(${objects} PROPERTIES EXTERNAL_OBJECT TRUE
                                                    GENERATED TRUE)
  add_library(${name} STATIC ${objects} ${headers})

  # Nothing is compiled, but CMake needs a language to archive with.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST languages)
    set(linker_language C)
  elseif("CXX" IN_LIST languages)
    set(linker_language CXX)
  else()
    message(FATAL_ERROR "layoutc_add_library(${name}): enable C or CXX in "
                        "project() first")
  endif()
  set_target_properties(${name} PROPERTIES
    LINKER_LANGUAGE ${linker_language}
    LAYOUTC_HEADER_DIR "${out_dir}"
    LAYOUTC_HEADERS "${headers}")
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  target_link_libraries(${name} PUBLIC layoutc::layout_rt)
endfunction()
