# Cortex-M4F: the generic Cortex-M toolchain file with its core fixed, for builds configured
# by hand with -DCMAKE_TOOLCHAIN_FILE (the presets use arm-none-eabi-cortex-m.cmake).
set(GRT_CORTEX_M_CPU "cortex-m4" CACHE STRING "Cortex-M core: cortex-m3, cortex-m4, cortex-m7 or cortex-m33")
include("${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-cortex-m.cmake")
