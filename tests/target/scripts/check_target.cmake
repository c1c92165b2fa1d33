# cmake -DREADELF=arm-none-eabi-readelf -DELF=image.elf -DCPU=cortex-m33 -DFLASH_ORIGIN=0x10000000
#       -P check_target.cmake
# Fails unless the image was built for CPU and linked for its board: the architecture, FPU
# and float ABI the objects' build attributes record, and the vector table at the board's
# flash origin (where the core reads it at reset). An image of the wrong core can pass its
# golden cases on a board whose CPU runs a superset (an M4 build on the M7) or never touches
# what the core lacks, so qemu's verdict alone does not say the target is the one asked for.
execute_process(COMMAND "${READELF}" -A -S "${ELF}" OUTPUT_VARIABLE elf RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} could not read ${ELF}")
endif()

# Expected attributes: CPU architecture; FP architecture (empty: none, soft float).
set(arch_cortex-m3 "v7")
set(fp_cortex-m3 "")
set(arch_cortex-m4 "v7E-M")
set(fp_cortex-m4 "VFPv4-D16")
set(arch_cortex-m7 "v7E-M")
set(fp_cortex-m7 "FPv5/FP-D16 for ARMv8")
set(arch_cortex-m33 "v8-M.mainline")
set(fp_cortex-m33 "FPv5/FP-D16 for ARMv8")
if(NOT DEFINED arch_${CPU})
  message(FATAL_ERROR "check_target: no expectations for CPU=${CPU}")
endif()

set(problems "")
if(NOT elf MATCHES "Tag_CPU_arch: ([^\n]+)\n" OR NOT CMAKE_MATCH_1 STREQUAL "${arch_${CPU}}")
  string(APPEND problems "architecture '${CMAKE_MATCH_1}', expected '${arch_${CPU}}'; ")
endif()
set(fp "")
if(elf MATCHES "Tag_FP_arch: ([^\n]+)\n")
  set(fp "${CMAKE_MATCH_1}")
endif()
if(NOT fp STREQUAL "${fp_${CPU}}")
  string(APPEND problems "FP architecture '${fp}', expected '${fp_${CPU}}'; ")
endif()
# Hard float passes floats in VFP registers; the M7's FPU is double precision, the M33's
# and M4's single precision only.
set(hard_float OFF)
if(elf MATCHES "Tag_ABI_VFP_args: VFP registers")
  set(hard_float ON)
endif()
if(fp_${CPU} AND NOT hard_float)
  string(APPEND problems "soft-float calling convention on a core with an FPU; ")
elseif(NOT fp_${CPU} AND hard_float)
  string(APPEND problems "hard-float calling convention on a core without an FPU; ")
endif()
set(single_only OFF)
if(elf MATCHES "Tag_ABI_HardFP_use: SP only")
  set(single_only ON)
endif()
if(NOT hard_float OR NOT fp_${CPU})
  # nothing more to say about the FPU
elseif(CPU STREQUAL "cortex-m7" AND single_only)
  string(APPEND problems "single-precision FPU only, the M7's is double precision; ")
elseif(CPU MATCHES "^cortex-m(4|33)$" AND NOT single_only)
  string(APPEND problems "double-precision FPU assumed, the ${CPU}'s is single precision; ")
endif()
if(CPU STREQUAL "cortex-m33" AND NOT elf MATCHES "Tag_DSP_extension: Allowed")
  string(APPEND problems "no DSP extension; ")
endif()

if(NOT elf MATCHES "\\] \\.vectors +PROGBITS +([0-9a-f]+) ")
  string(APPEND problems "no .vectors section; ")
else()
  math(EXPR vectors "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT HEXADECIMAL)
  math(EXPR origin "${FLASH_ORIGIN}" OUTPUT_FORMAT HEXADECIMAL)
  if(NOT vectors STREQUAL origin)
    string(APPEND problems "vector table at ${vectors}, the board boots from ${origin}; ")
  endif()
endif()

if(problems)
  message(FATAL_ERROR "${ELF} is not a ${CPU} image for its board: ${problems}")
endif()
message(STATUS "${ELF}: ${CPU} (${arch_${CPU}}, FP '${fp}'), vector table at ${FLASH_ORIGIN}")
