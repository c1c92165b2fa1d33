# The server's figures for a model equal those of the model's own firmware image built in
# the same tree: bookkeeping and pool bytes exactly, instructions per inference within
# 0.01 % (SysTick's 40-instruction steps, and the server's hooks pointer that the image
# does not set). The image reports on stderr (semihosting). -DGRAPHRT= -DFIRMWARE= -DBLOB= -DINPUT= -DIMAGE= -DQEMU=
execute_process(COMMAND "${QEMU}" -M mps2-an386 -nographic -semihosting-config enable=on,target=native -icount shift=0
                        -kernel "${IMAGE}"
                RESULT_VARIABLE result OUTPUT_VARIABLE image_output ERROR_VARIABLE image_output TIMEOUT 280)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the firmware image failed (${result}): ${image_output}")
endif()
string(REGEX MATCH "case 1: [^\n]*, ([0-9]+) instructions" _ "${image_output}")
set(image_instructions "${CMAKE_MATCH_1}")
string(REGEX MATCH "bookkeeping reserved ([0-9]+)" _ "${image_output}")
set(image_bookkeeping "${CMAKE_MATCH_1}")
string(REGEX MATCH "pool 0: reserved ([0-9]+)" _ "${image_output}")
set(image_pool "${CMAKE_MATCH_1}")
if(image_instructions STREQUAL "" OR image_bookkeeping STREQUAL "" OR image_pool STREQUAL "")
  message(FATAL_ERROR "cannot read the image's figures from: ${image_output}")
endif()

execute_process(COMMAND "${GRAPHRT}" device run "${BLOB}" --qemu mps2-an386 --firmware "${FIRMWARE}" --input "${INPUT}" --json --timeout 60
                RESULT_VARIABLE result OUTPUT_VARIABLE json ERROR_VARIABLE error TIMEOUT 280)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "graphrt device run failed (${result}): ${error}")
endif()
string(JSON device_instructions GET "${json}" instructions_per_run)
string(REGEX REPLACE "\\..*$" "" device_instructions "${device_instructions}")
string(JSON device_bookkeeping GET "${json}" memory bookkeeping_bytes)
string(JSON device_pool GET "${json}" memory pool_bytes)
message("image: ${image_instructions} instructions, bookkeeping ${image_bookkeeping}, pool ${image_pool}")
message("device: ${device_instructions} instructions, bookkeeping ${device_bookkeeping}, pool ${device_pool}")
if(NOT device_bookkeeping EQUAL image_bookkeeping OR NOT device_pool EQUAL image_pool)
  message(FATAL_ERROR "the server's memory figures differ from the firmware image's")
endif()
math(EXPR gap "${device_instructions} - ${image_instructions}")
if(gap LESS 0)
  math(EXPR gap "0 - ${gap}")
endif()
math(EXPR limit "${image_instructions} / 10000")
if(gap GREATER limit)
  message(FATAL_ERROR "instructions differ by ${gap}, more than 0.01 % (${limit})")
endif()
