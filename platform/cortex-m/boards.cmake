# The qemu board a Cortex-M build runs on, from the core the toolchain file compiles for
# (GRT_CORTEX_M_CPU): its linker script (memory map), its qemu machine and the clock its
# SysTick counts, and where the core reads its vector table at reset. qemu's MPS2 machines
# each take one core only, so the core names the board.
#   cortex-m3   mps2-an385   25 MHz   boots from 0            mps2.ld
#   cortex-m4   mps2-an386   25 MHz   boots from 0            mps2.ld
#   cortex-m7   mps2-an500   25 MHz   boots from 0            mps2.ld
#   cortex-m33  mps2-an505   20 MHz   boots from 0x10000000   mps2_an505.ld (secure; runs secure)
# Each board's CMSDK UART0 (the first -serial port) sits at 0x40004000 with its RX interrupt
# on IRQ 0, except mps2-an505's: 0x40200000 (0x50200000 from the secure state the image
# runs in), RX on IRQ 32.
# Sets GRT_LINKER_SCRIPT, GRT_QEMU_MACHINE, GRT_CORTEX_M_CPU_HZ, GRT_CORTEX_M_BOOT_ADDRESS,
# GRT_BOARD_UART0_BASE, GRT_BOARD_UART0_RX_IRQ.
set(_grt_cpu "${GRT_CORTEX_M_CPU}")
if(NOT _grt_cpu)
  set(_grt_cpu "cortex-m4") # a toolchain file of its own that does not say: the M4 port's board
endif()
set(_grt_dir "${CMAKE_CURRENT_LIST_DIR}")
set(GRT_CORTEX_M_CPU_HZ 25000000)
set(GRT_CORTEX_M_BOOT_ADDRESS 0x00000000)
set(GRT_LINKER_SCRIPT "${_grt_dir}/mps2.ld")
set(GRT_BOARD_UART0_BASE 0x40004000)
set(GRT_BOARD_UART0_RX_IRQ 0)
if(_grt_cpu STREQUAL "cortex-m3")
  set(GRT_QEMU_MACHINE mps2-an385)
elseif(_grt_cpu STREQUAL "cortex-m4")
  set(GRT_QEMU_MACHINE mps2-an386)
elseif(_grt_cpu STREQUAL "cortex-m7")
  set(GRT_QEMU_MACHINE mps2-an500)
elseif(_grt_cpu STREQUAL "cortex-m33")
  set(GRT_QEMU_MACHINE mps2-an505)
  set(GRT_CORTEX_M_CPU_HZ 20000000)
  set(GRT_CORTEX_M_BOOT_ADDRESS 0x10000000) # the IoTKit's INITSVTOR0
  set(GRT_LINKER_SCRIPT "${_grt_dir}/mps2_an505.ld")
  set(GRT_BOARD_UART0_BASE 0x50200000)
  set(GRT_BOARD_UART0_RX_IRQ 32)
else()
  message(FATAL_ERROR "graphrt: no qemu board for GRT_CORTEX_M_CPU=${_grt_cpu}")
endif()
set(GRT_LINKER_SCRIPT "${GRT_LINKER_SCRIPT}" CACHE INTERNAL "")
set(GRT_QEMU_MACHINE "${GRT_QEMU_MACHINE}" CACHE INTERNAL "")
set(GRT_CORTEX_M_CPU_HZ "${GRT_CORTEX_M_CPU_HZ}" CACHE INTERNAL "")
set(GRT_CORTEX_M_BOOT_ADDRESS "${GRT_CORTEX_M_BOOT_ADDRESS}" CACHE INTERNAL "")
set(GRT_BOARD_UART0_BASE "${GRT_BOARD_UART0_BASE}" CACHE INTERNAL "")
set(GRT_BOARD_UART0_RX_IRQ "${GRT_BOARD_UART0_RX_IRQ}" CACHE INTERNAL "")
set(GRT_CORTEX_M_CPU "${_grt_cpu}" CACHE STRING "Cortex-M core: cortex-m3, cortex-m4, cortex-m7 or cortex-m33")
message(STATUS "graphrt: ${_grt_cpu} on qemu ${GRT_QEMU_MACHINE} (${GRT_LINKER_SCRIPT})")
