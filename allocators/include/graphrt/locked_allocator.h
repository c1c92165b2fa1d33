/* An allocator that several tasks may share: every call to the wrapped allocator (a page
 * allocator, say) runs between the user's lock and unlock callbacks. graphrt itself knows
 * no RTOS: on FreeRTOS pass a mutex's take/give, on POSIX a pthread mutex, on bare metal
 * an interrupt mask. The callbacks must not fail; the wrapper adds nothing else.
 *
 *   grt_locked_allocator locked;
 *   grt_locked_init(&locked, &pages_view, take_mutex, give_mutex, mutex);
 *   grt_allocator shared = grt_locked_as_allocator(&locked);   (one per executor or many)
 */
#ifndef GRAPHRT_LOCKED_ALLOCATOR_H_
#define GRAPHRT_LOCKED_ALLOCATOR_H_

#include "graphrt/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_locked_allocator {
  const grt_allocator* inner; /* must outlive the wrapper */
  void (*lock)(void* user);
  void (*unlock)(void* user);
  void* user;
} grt_locked_allocator;

void grt_locked_init(grt_locked_allocator* locked, const grt_allocator* inner, void (*lock)(void* user),
                     void (*unlock)(void* user), void* user);
/* The grt_allocator view: allocate, free and stats each take the lock. */
grt_allocator grt_locked_as_allocator(grt_locked_allocator* locked);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_LOCKED_ALLOCATOR_H_ */
