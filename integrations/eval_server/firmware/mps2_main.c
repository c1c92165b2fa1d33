/* graphrt-eval-server on qemu's MPS2 boards: the evaluation server on the board's UART0,
 * with the core's cycle counter and stack painting. This file is the whole board port; the
 * build passes the board's facts (platform/cortex-m/boards.cmake):
 *   GRT_EVAL_UART_BASE    the CMSDK UART0's registers (0x40004000 on mps2-an385/386/500;
 *                         0x50200000 on mps2-an505, the secure alias the image runs in)
 *   GRT_EVAL_UART_RX_IRQ  that UART's RX interrupt number (0; 32 on mps2-an505)
 *   GRT_EVAL_TARGET       the board and core, as `graphrt device info` prints them
 * Another board changes the UART calls, the clock and the RAM area's size (docs/device.md). */
#include <stdint.h>

#include "cycle_counter.h"
#include "eval_server.h"
#include "graphrt/kernels.h"
#include "graphrt/platform.h"
#include "stack_usage.h"
#include "uart_cmsdk.h"

#ifndef GRT_EVAL_RAM_AREA_BYTES
#define GRT_EVAL_RAM_AREA_BYTES (3u * 1024u * 1024u)
#endif
#if !defined(GRT_EVAL_UART_BASE) || !defined(GRT_EVAL_UART_RX_IRQ) || !defined(GRT_EVAL_TARGET)
#error "the board's GRT_EVAL_UART_BASE, GRT_EVAL_UART_RX_IRQ and GRT_EVAL_TARGET are not defined"
#endif

/* Sleeping between bytes: SCR.SEVONPEND makes any interrupt that becomes pending (UART0's
 * RX line, left disabled in the NVIC) an event that ends WFE. A sleeping core leaves qemu's
 * host CPU to the thread that moves the serial bytes. */
#define SCB_SCR (*(volatile uint32_t*)0xE000ED10u)
#define SCR_SEVONPEND (1u << 4)
#define NVIC_ICPR ((volatile uint32_t*)0xE000E280u)

enum {
  kBaud = 115200,
  /* Silence after which a half-received frame is dropped. Long enough that a host (or
   * qemu, whose virtual clock runs on while its serial backend stalls) pausing mid-frame
   * is not mistaken for a dead one. */
  kIdleMilliseconds = 2000
};

static uint64_t board_cycles(void* context) { return grt_cycle_counter_read((grt_cycle_counter*)context); }
static size_t board_stack_high_water(void* context) {
  (void)context;
  return grt_cortex_m_stack_high_water();
}
static size_t board_stack_size(void* context) {
  (void)context;
  return grt_cortex_m_stack_size();
}
static void board_write(void* context, const uint8_t* bytes, size_t size) {
  (void)context;
  grt_cmsdk_uart_write(GRT_EVAL_UART_BASE, bytes, size);
}

/* The image's memory: the server (its frame buffers) and the RAM area, in .bss. */
static grt_eval_server g_server;
static uint8_t g_ram_area[GRT_EVAL_RAM_AREA_BYTES] __attribute__((aligned(16)));

int main(void) {
  grt_cortex_m_stack_paint();
  static grt_cycle_counter counter;
  grt_cycle_counter_start(&counter);
  const uint32_t clock_hz = (uint32_t)grt_platform_ticks_per_second();
  grt_cmsdk_uart_init(GRT_EVAL_UART_BASE, clock_hz, kBaud);

  const grt_eval_board board = {
      .target = counter.source == GRT_CYCLES_DWT ? GRT_EVAL_TARGET " (DWT cycles)" : GRT_EVAL_TARGET " (SysTick cycles)",
      .core_clock_hz = clock_hz,
      .cycle_source = (uint32_t)counter.source,
      .cycles = board_cycles,
      .stack_high_water = board_stack_high_water,
      .stack_size = board_stack_size,
      .write = board_write,
      .context = &counter,
      .ram_area = g_ram_area,
      .ram_area_size = sizeof g_ram_area,
      .trust = NULL,
      .kernels = grt_builtin_kernels(),
  };
  grt_eval_server_init(&g_server, &board);
  grt_cmsdk_uart_rx_interrupt(GRT_EVAL_UART_BASE, 1);
  SCB_SCR |= SCR_SEVONPEND;

  const uint64_t idle_ticks = (uint64_t)clock_hz / 1000u * kIdleMilliseconds;
  uint64_t last_byte = grt_platform_ticks();
  for (;;) {
    /* Cleared before looking, so a byte that lands after the look still wakes the WFE. */
    grt_cmsdk_uart_rx_interrupt_clear(GRT_EVAL_UART_BASE);
    NVIC_ICPR[GRT_EVAL_UART_RX_IRQ / 32] = 1u << (GRT_EVAL_UART_RX_IRQ % 32);
    const int byte = grt_cmsdk_uart_read(GRT_EVAL_UART_BASE);
    if (byte >= 0) {
      const uint8_t b = (uint8_t)byte;
      grt_eval_server_receive(&g_server, &b, 1);
      last_byte = grt_platform_ticks();
    } else if (grt_eval_parser_pending(&g_server.parser) != 0 && grt_platform_ticks() - last_byte > idle_ticks) {
      grt_eval_server_link_idle(&g_server);
    } else {
      __asm__ volatile("wfe"); /* until a byte, or SysTick's next wrap (for the idle check) */
    }
  }
}
