# cmake -DINPUT=f.bin -DSYMBOL=name -DOUTPUT_C=f.c -DOUTPUT_H=f.h [-DSECTION=.rodata.x] -P embed_binary.cmake
# Writes any file as a 16-byte aligned const array (optionally in a named linker section)
# and a header with its size as a macro, so firmware can size buffers for it.
include("${CMAKE_CURRENT_LIST_DIR}/c_bytes.cmake")
foreach(required INPUT SYMBOL OUTPUT_C OUTPUT_H)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "embed_binary.cmake: -D${required}=... is required")
  endif()
endforeach()

file(SIZE "${INPUT}" size)
grt_c_bytes("${INPUT}" body)
string(TOUPPER "${SYMBOL}" upper)
get_filename_component(header_name "${OUTPUT_H}" NAME)
get_filename_component(input_name "${INPUT}" NAME)
set(placement "__attribute__((aligned(16)))")
if(SECTION)
  set(placement "__attribute__((aligned(16), section(\"${SECTION}\"), used))")
endif()

file(WRITE "${OUTPUT_H}" "/* Generated from ${input_name} by embed_binary.cmake. Do not edit. */
#ifndef ${upper}_H_
#define ${upper}_H_
#include <stddef.h>
#define ${upper}_SIZE ${size}u
extern const unsigned char ${SYMBOL}[${upper}_SIZE];
#endif
")
file(WRITE "${OUTPUT_C}" "/* Generated from ${input_name} (${size} bytes) by embed_binary.cmake. Do not edit. */
#include \"${header_name}\"
const unsigned char ${SYMBOL}[${upper}_SIZE] ${placement} = {
${body}
};
")
