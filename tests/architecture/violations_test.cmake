# cmake -DCHECKER=check_layers.cmake -DWORK=<scratch dir> -P violations_test.cmake
# Proves the layering check fails on each kind of violation, and only on those: a small
# tree with one violation of each kind, then the same tree without them.
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
function(put path text)
  file(WRITE "${WORK}/${path}" "${text}\n")
endfunction()

# One public header per layer, and an internal header of the runtime.
put(platform/include/graphrt/platform.h "// port contract")
put(allocators/include/graphrt/allocator.h "#include \"graphrt/platform.h\"")
put(runtime/include/graphrt/graphrt.h "#include \"graphrt/allocator.h\"")
put(runtime/src/executor_state.h "#include \"graphrt/graphrt.h\"")
put(kernels/include/graphrt/kernels.h "#include \"graphrt/graphrt.h\"")
put(integrations/rtos/include/graphrt/rtos_task.h "#include \"graphrt/graphrt.h\"")
# Allowed: downward includes, the runtime's own internals, a kernel on the public API.
put(runtime/src/executor.cpp "#include \"executor_state.h\"\n#include \"graphrt/platform.h\"")
put(kernels/src/add.cpp "#include \"graphrt/graphrt.h\"\n#include \"graphrt/kernels.h\"")
put(integrations/rtos/task.cpp "#include \"graphrt/kernels.h\"")
string(REPEAT "//\n" 399 four_hundred_lines)
string(APPEND four_hundred_lines "//")  # put() ends it with the 400th newline
put(runtime/src/just_fits.cpp "${four_hundred_lines}")

set(bad_files platform/posix/port.cpp kernels/src/peek.cpp allocators/src/pool.cpp runtime/src/long.cpp
    platform/rtos/port.c)
put(platform/posix/port.cpp "#include \"graphrt/graphrt.h\"")
put(kernels/src/peek.cpp "  #  include \"executor_state.h\"")
put(allocators/src/pool.cpp "#include \"graphrt/kernels.h\"")
put(runtime/src/long.cpp "${four_hundred_lines}\n//")
put(platform/rtos/port.c "#include \"graphrt/rtos_task.h\"")
set(expected
    "platform/posix/port.cpp: includes graphrt/graphrt.h of runtime/"
    "kernels/src/peek.cpp: includes executor_state.h, the runtime's internals"
    "allocators/src/pool.cpp: includes graphrt/kernels.h of kernels/"
    "runtime/src/long.cpp: 401 lines, more than 400"
    "platform/rtos/port.c: includes graphrt/rtos_task.h of integrations/"
    "5 violation")

execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -P "${CHECKER}" RESULT_VARIABLE rc ERROR_VARIABLE out OUTPUT_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "the check passed a tree with violations:\n${out}")
endif()
foreach(line ${expected})
  string(FIND "${out}" "${line}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the check did not report \"${line}\":\n${out}")
  endif()
endforeach()

foreach(file ${bad_files})
  file(REMOVE "${WORK}/${file}")
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -P "${CHECKER}" RESULT_VARIABLE rc ERROR_VARIABLE out OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the check failed a tree without violations:\n${out}")
endif()
message(STATUS "the check reports each kind of violation and passes the tree without them")
