// FreeRTOS port of platform.h: a per-task slot through thread-local storage, the tick
// count for profiles, taskYIELD between nodes. See graphrt/freertos_platform.h.
#include "FreeRTOS.h"
#include "task.h"

#include "graphrt/freertos_platform.h"
#include "graphrt/platform.h"

#ifndef grtconfigTLS_INDEX
#define grtconfigTLS_INDEX 0
#endif

#if !defined(configNUM_THREAD_LOCAL_STORAGE_POINTERS) || configNUM_THREAD_LOCAL_STORAGE_POINTERS <= grtconfigTLS_INDEX
#error "graphrt needs a thread-local storage pointer: set configNUM_THREAD_LOCAL_STORAGE_POINTERS above grtconfigTLS_INDEX"
#endif
#if INCLUDE_xTaskGetSchedulerState != 1 || INCLUDE_xTaskGetCurrentTaskHandle != 1
#error "graphrt needs INCLUDE_xTaskGetSchedulerState and INCLUDE_xTaskGetCurrentTaskHandle set to 1"
#endif

namespace {

// Before the scheduler starts there is one thread of execution (main): it may use a plain
// variable, as bare metal does. Only ever touched while no task runs.
void* g_before_scheduler_slot = nullptr;

constexpr unsigned kTickBits = sizeof(TickType_t) * 8;

}  // namespace

extern "C" {

void grt_freertos_bind_slot(void** cell) {
  vTaskSetThreadLocalStoragePointer(nullptr, grtconfigTLS_INDEX, cell);
}

void** grt_platform_current_slot(void) {
  if (xTaskGetSchedulerState() == taskSCHEDULER_NOT_STARTED) return &g_before_scheduler_slot;
  void** cell = static_cast<void**>(pvTaskGetThreadLocalStoragePointer(nullptr, grtconfigTLS_INDEX));
  if (cell == nullptr) {
    grt_freertos_log(pcTaskGetName(nullptr));
    grt_platform_abort("this task runs graphrt without a slot: call grt_freertos_bind_slot first");
  }
  return cell;
}

void grt_platform_log(const char* message) { grt_freertos_log(message); }

void grt_platform_abort(const char* reason) {
  grt_freertos_fatal(reason);
  for (;;) {
  }
}

uint64_t grt_platform_ticks(void) {
#ifdef grtconfigTICKS
  return grtconfigTICKS();
#else
  // The kernel counts tick overflows; together with the count they make a 64-bit clock
  // without a variable of our own.
  TimeOut_t now;
  vTaskSetTimeOutState(&now);
  if constexpr (kTickBits >= 64) {
    return static_cast<uint64_t>(now.xTimeOnEntering);
  } else {
    return (static_cast<uint64_t>(now.xOverflowCount) << (kTickBits % 64)) | static_cast<uint64_t>(now.xTimeOnEntering);
  }
#endif
}

uint64_t grt_platform_ticks_per_second(void) {
#ifdef grtconfigTICKS_PER_SECOND
  return grtconfigTICKS_PER_SECOND;
#else
  return configTICK_RATE_HZ;
#endif
}

void grt_platform_yield(void) { taskYIELD(); }

}  // extern "C"
