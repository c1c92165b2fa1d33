#include "uart_cmsdk.h"

#define UART_REG(base, offset) (*(volatile uint32_t*)((base) + (offset)))
#define UART_DATA 0x00u
#define UART_STATE 0x04u
#define UART_CTRL 0x08u
#define UART_INTCLEAR 0x0Cu
#define UART_BAUDDIV 0x10u
#define STATE_TX_FULL 0x1u
#define STATE_RX_FULL 0x2u
#define CTRL_TX_ENABLE 0x1u
#define CTRL_RX_ENABLE 0x2u
#define CTRL_RX_INTERRUPT 0x8u
#define INT_RX 0x2u

void grt_cmsdk_uart_init(uintptr_t base, uint32_t clock_hz, uint32_t baud) {
  uint32_t divider = baud != 0 ? clock_hz / baud : 16u;
  if (divider < 16u) divider = 16u; /* the smallest divider the UART accepts */
  UART_REG(base, UART_CTRL) = 0;
  UART_REG(base, UART_BAUDDIV) = divider;
  UART_REG(base, UART_CTRL) = CTRL_TX_ENABLE | CTRL_RX_ENABLE;
}

void grt_cmsdk_uart_write(uintptr_t base, const uint8_t* bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    while ((UART_REG(base, UART_STATE) & STATE_TX_FULL) != 0) {
    }
    UART_REG(base, UART_DATA) = bytes[i];
  }
}

int grt_cmsdk_uart_read(uintptr_t base) {
  if ((UART_REG(base, UART_STATE) & STATE_RX_FULL) == 0) return -1;
  return (int)(UART_REG(base, UART_DATA) & 0xFFu);
}

void grt_cmsdk_uart_rx_interrupt(uintptr_t base, int enable) {
  const uint32_t ctrl = UART_REG(base, UART_CTRL);
  UART_REG(base, UART_CTRL) = enable ? (ctrl | CTRL_RX_INTERRUPT) : (ctrl & ~CTRL_RX_INTERRUPT);
}

void grt_cmsdk_uart_rx_interrupt_clear(uintptr_t base) { UART_REG(base, UART_INTCLEAR) = INT_RX; }
