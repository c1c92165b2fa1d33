# Cortex-M firmware with Debian's gcc-arm-none-eabi and newlib-nano. GRT_CORTEX_M_CPU picks
# the core and with it the FPU and the float ABI (the presets set it):
#   cortex-m3   ARMv7-M: no DSP extension, no FPU, soft float
#   cortex-m4   ARMv7E-M (DSP), single-precision FPU (FPv4-SP-D16), hard float
#   cortex-m7   ARMv7E-M (DSP), double-precision FPU (FPv5-D16), hard float
#   cortex-m33  ARMv8-M mainline with DSP, single-precision FPU (FPv5-SP-D16), hard float
# newlib-nano has a multilib for each. The qemu board each core runs on is chosen in
# platform/cortex-m/boards.cmake.
set(GRT_CORTEX_M_CPU "cortex-m4" CACHE STRING "Cortex-M core: cortex-m3, cortex-m4, cortex-m7 or cortex-m33")
# try_compile projects read this file again: they get the core too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES GRT_CORTEX_M_CPU)

if(GRT_CORTEX_M_CPU STREQUAL "cortex-m3")
  set(_grt_float_flags "-mfloat-abi=soft")
elseif(GRT_CORTEX_M_CPU STREQUAL "cortex-m4")
  set(_grt_float_flags "-mfloat-abi=hard -mfpu=fpv4-sp-d16")
elseif(GRT_CORTEX_M_CPU STREQUAL "cortex-m7")
  set(_grt_float_flags "-mfloat-abi=hard -mfpu=fpv5-d16")
elseif(GRT_CORTEX_M_CPU STREQUAL "cortex-m33")
  set(_grt_float_flags "-mfloat-abi=hard -mfpu=fpv5-sp-d16")
else()
  message(FATAL_ERROR "graphrt: GRT_CORTEX_M_CPU=${GRT_CORTEX_M_CPU} is not one of cortex-m3, cortex-m4, cortex-m7, cortex-m33")
endif()

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(GRT_CPU_FLAGS "-mcpu=${GRT_CORTEX_M_CPU} -mthumb ${_grt_float_flags}")
set(CMAKE_C_FLAGS_INIT "${GRT_CPU_FLAGS} -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${GRT_CPU_FLAGS} -ffunction-sections -fdata-sections -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit -Wno-psabi")
set(CMAKE_ASM_FLAGS_INIT "${GRT_CPU_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${GRT_CPU_FLAGS} --specs=nano.specs -nostartfiles -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
