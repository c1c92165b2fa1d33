// Serialises every call into a shared allocator with the user's lock callbacks.
#include "graphrt/locked_allocator.h"

namespace {

class Locked {
 public:
  explicit Locked(const grt_locked_allocator* l) : l_(l) { l_->lock(l_->user); }
  ~Locked() { l_->unlock(l_->user); }
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;

 private:
  const grt_locked_allocator* l_;
};

void* locked_allocate(void* context, size_t size, size_t alignment) {
  const auto* l = static_cast<const grt_locked_allocator*>(context);
  Locked hold(l);
  return grt_allocate(l->inner, size, alignment);
}

void locked_free(void* context, void* ptr) {
  const auto* l = static_cast<const grt_locked_allocator*>(context);
  Locked hold(l);
  grt_free(l->inner, ptr);
}

void locked_stats(const void* context, grt_allocator_stats* out) {
  const auto* l = static_cast<const grt_locked_allocator*>(context);
  if (l->inner->stats == nullptr) {
    *out = grt_allocator_stats{0, 0, 0, SIZE_MAX};
    return;
  }
  Locked hold(l);
  l->inner->stats(l->inner->context, out);
}

}  // namespace

extern "C" {

void grt_locked_init(grt_locked_allocator* locked, const grt_allocator* inner, void (*lock)(void* user),
                     void (*unlock)(void* user), void* user) {
  locked->inner = inner;
  locked->lock = lock;
  locked->unlock = unlock;
  locked->user = user;
}

grt_allocator grt_locked_as_allocator(grt_locked_allocator* locked) {
  grt_allocator a{};
  a.allocate = locked_allocate;
  a.free = locked_free;
  a.stats = locked_stats;
  a.context = locked;
  return a;
}

}  // extern "C"
