#include "sized_thread.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace grt::test {
namespace {

constexpr uint8_t kPaint = 0xA5;

void* run_body(void* body) {
  (*static_cast<std::function<void()>*>(body))();
  return nullptr;
}

}  // namespace

SizedThread::SizedThread(size_t stack_bytes, std::function<void()> body) : body_(std::move(body)) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, stack_bytes) == 0) {
    started_ = pthread_create(&thread_, &attr, run_body, &body_) == 0;
  }
  pthread_attr_destroy(&attr);
}

SizedThread::~SizedThread() { join(); }

void SizedThread::join() {
  if (!started_) return;
  pthread_join(thread_, nullptr);
  started_ = false;
}

size_t painted_stack_use(size_t stack_bytes, const std::function<void()>& body) {
  struct FreeStack {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, FreeStack> stack(static_cast<uint8_t*>(std::aligned_alloc(4096, stack_bytes)));
  if (!stack) return 0;
  std::memset(stack.get(), kPaint, stack_bytes);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  std::function<void()> copy = body;
  pthread_t thread{};
  const bool started = pthread_attr_setstack(&attr, stack.get(), stack_bytes) == 0 &&
                       pthread_create(&thread, &attr, run_body, &copy) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return 0;
  pthread_join(thread, nullptr);
  // The stack grows down: the lowest byte that lost its paint marks the deepest point.
  size_t untouched = 0;
  while (untouched < stack_bytes && stack.get()[untouched] == kPaint) ++untouched;
  return stack_bytes - untouched;
}

}  // namespace grt::test
