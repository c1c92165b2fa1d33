/* Polled driver for Arm's CMSDK APB UART (the MPS2 boards' UART0, which qemu connects to its
 * first -serial port; its address per board in boards.cmake). Registers: DATA (+0x00), STATE (+0x04: bit 0 TX
 * full, bit 1 RX full), CTRL (+0x08: bit 0 TX enable, bit 1 RX enable), BAUDDIV (+0x10:
 * clock / baud, at least 16), INTSTATUS/INTCLEAR (+0x0C: bit 1 RX). Polled, no FIFO
 * beyond the one-byte holding registers: the evaluation server reads as fast as it handles
 * frames; the RX interrupt line only wakes a sleeping core. */
#ifndef GRAPHRT_CORTEX_M_UART_CMSDK_H_
#define GRAPHRT_CORTEX_M_UART_CMSDK_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enables TX and RX at `baud` for a UART clocked at `clock_hz`. */
void grt_cmsdk_uart_init(uintptr_t base, uint32_t clock_hz, uint32_t baud);
/* Sends bytes, waiting while the transmitter is full. */
void grt_cmsdk_uart_write(uintptr_t base, const uint8_t* bytes, size_t size);
/* A received byte (0..255), or -1 when none is waiting. */
int grt_cmsdk_uart_read(uintptr_t base);
/* Makes a received byte raise the UART's RX interrupt line (so that a core sleeping in WFE
 * with SEVONPEND wakes up), or stops it. The interrupt need not be enabled in the NVIC. */
void grt_cmsdk_uart_rx_interrupt(uintptr_t base, int enable);
/* Clears the UART's RX interrupt, so that the next byte raises it again. */
void grt_cmsdk_uart_rx_interrupt_clear(uintptr_t base);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_CORTEX_M_UART_CMSDK_H_ */
