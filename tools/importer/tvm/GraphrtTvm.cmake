# graphrt_tvm_model(<name> GRAPH <file> [PARAMS <file>] OPERATORS <generated .c ...>
#                   [GRAPHRT <host graphrt>] [WORKSPACE_LIBRARY <host .so>])
#
# Builds TVM-generated operator C into firmware (or a host program) with graphrt: a static
# library <name> holding the operators, their kernel table `<name>_kernels` (graphrt kernels:
# each generated function with the argument check of what it was compiled for) and the blob
# `<name>_model` / `<name>_model_size` (graphrt bin2c, 16-byte aligned in flash). GRAPH is
# TVM's graph JSON (with PARAMS), Kenning's .graph_data or a Model Library Format tar.
#
# The import measures each node's workspace by running the operators on the build machine:
# in a host build from a shared library of OPERATORS made here, in a cross build from
# WORKSPACE_LIBRARY (the same operators built for the host). A Model Library Format tar with
# metadata.json needs neither. GRAPHRT defaults to this build's graphrt, or GRT_HOST_GRAPHRT.
function(graphrt_tvm_model name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "GRAPH;PARAMS;GRAPHRT;WORKSPACE_LIBRARY" "OPERATORS")
  if(NOT arg_GRAPH OR NOT arg_OPERATORS)
    message(FATAL_ERROR "graphrt_tvm_model(${name}): GRAPH and OPERATORS are required")
  endif()
  set(graphrt "${arg_GRAPHRT}")
  if(NOT graphrt AND TARGET graphrt)
    set(graphrt "$<TARGET_FILE:graphrt>")
  elseif(NOT graphrt)
    set(graphrt "${GRT_HOST_GRAPHRT}")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}_tvm")
  file(MAKE_DIRECTORY "${dir}")

  set(import_args "${arg_GRAPH}" -o "${dir}/${name}.grt")
  set(import_depends "${arg_GRAPH}")
  if(arg_PARAMS)
    list(APPEND import_args --params "${arg_PARAMS}")
    list(APPEND import_depends "${arg_PARAMS}")
  endif()
  if(arg_WORKSPACE_LIBRARY)
    list(APPEND import_args --kernels "${arg_WORKSPACE_LIBRARY}")
    list(APPEND import_depends "${arg_WORKSPACE_LIBRARY}")
  elseif(NOT CMAKE_CROSSCOMPILING)
    add_library(${name}_host_operators MODULE ${arg_OPERATORS})
    target_link_libraries(${name}_host_operators PRIVATE grt_runtime_headers)
    # Generated code declares variables it never reads: its warnings are not ours to fix.
    target_compile_options(${name}_host_operators PRIVATE -w)
    list(APPEND import_args --kernels "$<TARGET_FILE:${name}_host_operators>")
    list(APPEND import_depends ${name}_host_operators)
  endif()
  if(TARGET graphrt)
    list(APPEND import_depends graphrt)
  else()
    list(APPEND import_depends "${graphrt}")  # a host build's: re-import when it changes
  endif()

  add_custom_command(OUTPUT "${dir}/${name}.grt"
    COMMAND "${graphrt}" import ${import_args}
    DEPENDS ${import_depends} VERBATIM COMMENT "graphrt import ${name} (TVM)")
  add_custom_command(OUTPUT "${dir}/${name}_kernels.c" "${dir}/${name}_model.c"
    COMMAND "${graphrt}" kernels "${dir}/${name}.grt" --symbol ${name}_kernels -o "${dir}/${name}_kernels.c"
    COMMAND "${graphrt}" bin2c "${dir}/${name}.grt" --symbol ${name}_model -o "${dir}/${name}_model.c"
    DEPENDS "${dir}/${name}.grt" VERBATIM COMMENT "graphrt kernels and bin2c ${name}")

  add_library(${name} STATIC ${arg_OPERATORS} "${dir}/${name}_kernels.c" "${dir}/${name}_model.c")
  target_link_libraries(${name} PUBLIC grt_runtime_headers)
  if(COMMAND grt_device_code)
    grt_device_code(${name})  # graphrt's own build holds the generated table to its warnings
  endif()
  set_source_files_properties(${arg_OPERATORS} PROPERTIES COMPILE_OPTIONS "-w")
  set(${name}_BLOB "${dir}/${name}.grt" PARENT_SCOPE)
endfunction()
