# A blob bigger than the server's RAM area is refused, with both sizes in the message.
# -DGRAPHRT= -DFIRMWARE= -DBLOB= -DRAM_AREA=
file(SIZE "${BLOB}" blob_size)
execute_process(COMMAND "${GRAPHRT}" device info "${BLOB}" --qemu mps2-an386 --firmware "${FIRMWARE}" --timeout 30
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error TIMEOUT 120)
message("${error}")
set(expected "blob of ${blob_size} bytes does not fit the RAM area of ${RAM_AREA} bytes")
if(NOT result EQUAL 1 OR NOT error MATCHES "${expected}")
  message(FATAL_ERROR "expected exit code 1 and '${expected}', got ${result}")
endif()
