# The built-in kernel table (kernels/builtin.c over ops.def) as its own object
# library, so that a build can register only some operators:
#   -DPTERA_SELECTED_OPS=FILE   one operator name per line ("aten::add.out"; blank
#                               lines and '#' comments ignored), e.g. the output of
#                               `ptera ops --used MODEL.pte...`
# The table is generated from FILE at configure time (the matching PTERA_OP /
# PTERA_OP_PREPARED lines of ops.def); a name that ops.def lacks is a configure
# error. Kernels outside the table are left out of the linked binaries
# (function sections + --gc-sections).

# Writes to out_def the lines of ops_def naming the operators listed in list_file.
function(ptera_select_ops ops_def list_file out_def)
  file(STRINGS "${ops_def}" def_lines REGEX "^[ \t]*PTERA_OP(_PREPARED)?\\(\"")
  set(def_names "")
  foreach(line IN LISTS def_lines)
    string(REGEX MATCH "\"([^\"]+)\"" _ "${line}")
    list(APPEND def_names "${CMAKE_MATCH_1}")
  endforeach()
  if(NOT EXISTS "${list_file}")
    message(FATAL_ERROR "PTERA_SELECTED_OPS: cannot read '${list_file}'")
  endif()
  file(STRINGS "${list_file}" wanted_lines)
  set(wanted "")
  set(lineno 0)
  foreach(line IN LISTS wanted_lines)
    math(EXPR lineno "${lineno} + 1")
    string(STRIP "${line}" name)
    if(name STREQUAL "" OR name MATCHES "^#")
      continue()
    endif()
    list(FIND def_names "${name}" idx)
    if(idx LESS 0)
      message(FATAL_ERROR "PTERA_SELECTED_OPS: '${name}' (${list_file}:${lineno}) is not an "
                          "operator ptera implements (kernels/ops.def; `ptera ops` lists them)")
    endif()
    list(APPEND wanted "${name}")
  endforeach()
  set(text "/* Generated from ${list_file} by kernels/selected_ops.cmake: the selected lines of ops.def. */\n")
  set(i 0)
  foreach(name IN LISTS def_names)
    list(FIND wanted "${name}" w)
    if(w GREATER_EQUAL 0)
      list(GET def_lines ${i} line)
      string(APPEND text "${line}\n")
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
  file(WRITE "${out_def}.tmp" "${text}")
  configure_file("${out_def}.tmp" "${out_def}" COPYONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${ops_def}" "${list_file}")
endfunction()

# add_library(target OBJECT kernels/builtin.c) with every op of ops.def, or only
# those of list_file when it is not empty.
function(ptera_add_op_table target list_file)
  add_library(${target} OBJECT ${PROJECT_SOURCE_DIR}/kernels/builtin.c)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include ${PROJECT_SOURCE_DIR}/src
                                               ${PROJECT_SOURCE_DIR}/kernels)
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden)
  if(list_file)
    get_filename_component(list_abs "${list_file}" ABSOLUTE)
    set(def "${CMAKE_BINARY_DIR}/generated/${target}_ops.def")
    ptera_select_ops(${PROJECT_SOURCE_DIR}/kernels/ops.def "${list_abs}" "${def}")
    target_compile_definitions(${target} PRIVATE PTERA_OPS_TABLE="${def}")
  endif()
endfunction()
