// Threads with a stack of a chosen size, as an RTOS task has: to run executors on small
// stacks, and to measure how deep a call goes by painting the stack beforehand.
#ifndef GRAPHRT_TESTS_RTOS_SIZED_THREAD_H_
#define GRAPHRT_TESTS_RTOS_SIZED_THREAD_H_

#include <pthread.h>

#include <cstddef>
#include <functional>

namespace grt::test {

// A joinable pthread with exactly stack_bytes of stack (pthread_attr_setstacksize).
class SizedThread {
 public:
  SizedThread(size_t stack_bytes, std::function<void()> body);
  ~SizedThread();  // joins
  SizedThread(const SizedThread&) = delete;
  SizedThread& operator=(const SizedThread&) = delete;
  bool started() const { return started_; }
  void join();

 private:
  std::function<void()> body_;
  pthread_t thread_{};
  bool started_ = false;
};

// Runs body on a thread whose stack_bytes of stack (our buffer) are painted first, and
// returns how many bytes from the top were ever written: the thread's deepest stack use,
// including what the C library puts at the top of a thread's stack (subtract a thread that
// runs nothing to get the body's own use). 0 if the thread could not start.
size_t painted_stack_use(size_t stack_bytes, const std::function<void()>& body);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_RTOS_SIZED_THREAD_H_
