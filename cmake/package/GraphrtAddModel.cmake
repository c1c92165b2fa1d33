# graphrt_add_model(TARGET <target> MODEL <model.tflite|model.grt> [SYMBOL <c name>]
#                   [ABI native|arm32] [IMPORT_ARGS <graphrt import options>...])
#
# At build time: imports and plans the model (a .grt is used as it is), embeds the blob as a
# 16-byte aligned const array in flash (section .rodata.graphrt_model), writes a kernel table
# of just the kernels it uses, and a header with every size firmware needs at compile time.
# <target> is a static library; link it and include "<symbol>_model.h", which declares
#   const unsigned char <symbol>_model[];  const size_t <symbol>_model_size;
#   const grt_kernel_table <symbol>_kernels;
# and defines <SYMBOL>_POOL_COUNT, <SYMBOL>_POOL<i>_BYTES, <SYMBOL>_POOL<i>_ALIGNMENT,
# <SYMBOL>_BOOKKEEPING_BYTES (for ABI: arm32 on an Arm target, else native),
# <SYMBOL>_INPUT_COUNT and <SYMBOL>_OUTPUT_COUNT.
# The host tool is GRAPHRT_EXECUTABLE, else graphrt::graphrt, else `graphrt` on the PATH.
set(_GRAPHRT_ADD_MODEL_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(graphrt_add_model)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;MODEL;SYMBOL;ABI" "IMPORT_ARGS")
  if(NOT arg_TARGET OR NOT arg_MODEL)
    message(FATAL_ERROR "graphrt_add_model: TARGET and MODEL are required")
  endif()
  if(NOT arg_SYMBOL)
    set(arg_SYMBOL "${arg_TARGET}")
  endif()
  if(NOT arg_SYMBOL MATCHES "^[A-Za-z][A-Za-z0-9_]*$")
    message(FATAL_ERROR "graphrt_add_model: SYMBOL '${arg_SYMBOL}' is not a C identifier")
  endif()
  if(NOT arg_ABI)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(arm|ARM)")
      set(arg_ABI arm32)
    else()
      set(arg_ABI native)
    endif()
  endif()
  if(GRAPHRT_EXECUTABLE)
    set(tool "${GRAPHRT_EXECUTABLE}")
  elseif(TARGET graphrt::graphrt)
    set(tool "$<TARGET_FILE:graphrt::graphrt>")
  else()
    find_program(GRAPHRT_EXECUTABLE graphrt REQUIRED NO_CMAKE_FIND_ROOT_PATH)
    set(tool "${GRAPHRT_EXECUTABLE}")
  endif()

  get_filename_component(model "${arg_MODEL}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}_graphrt")
  set(blob "${out}/${arg_SYMBOL}.grt")
  if(model MATCHES "\\.grt$")
    set(make_blob "${CMAKE_COMMAND}" -E copy "${model}" "${blob}")
  else()
    set(make_blob "${tool}" import "${model}" -o "${blob}" ${arg_IMPORT_ARGS})
  endif()
  add_custom_command(
    OUTPUT "${blob}" "${out}/${arg_SYMBOL}_model_data.c" "${out}/${arg_SYMBOL}_kernels.c" "${out}/include/${arg_SYMBOL}_model.h"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${out}/include"
    COMMAND ${make_blob}
    COMMAND "${tool}" bin2c "${blob}" --symbol "${arg_SYMBOL}_model" --section .rodata.graphrt_model -o "${out}/${arg_SYMBOL}_model_data.c"
    COMMAND "${tool}" kernels "${blob}" --symbol "${arg_SYMBOL}_kernels" -o "${out}/${arg_SYMBOL}_kernels.c"
    COMMAND "${CMAKE_COMMAND}" -DGRAPHRT=${tool} -DBLOB=${blob} -DSYMBOL=${arg_SYMBOL} -DABI=${arg_ABI}
            -DOUTPUT=${out}/include/${arg_SYMBOL}_model.h -P "${_GRAPHRT_ADD_MODEL_DIR}/graphrt_model_header.cmake"
    DEPENDS "${model}" "${_GRAPHRT_ADD_MODEL_DIR}/graphrt_model_header.cmake"
    COMMENT "graphrt: ${arg_MODEL} -> ${arg_SYMBOL}_model (blob, kernel table, sizes)"
    VERBATIM)
  add_library(${arg_TARGET} STATIC "${out}/${arg_SYMBOL}_model_data.c" "${out}/${arg_SYMBOL}_kernels.c")
  target_include_directories(${arg_TARGET} PUBLIC "${out}/include")
  target_link_libraries(${arg_TARGET} PUBLIC graphrt::kernels)
endfunction()
