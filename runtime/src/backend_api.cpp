// TVM's backend calls, routed to the executor running on this thread (see
// grt_platform_current_slot). Workspaces come from that executor's per-node stack.
#include <string.h>

#include "executor_state.h"
#include "graphrt/packed_func.h"
#include "graphrt/platform.h"

namespace {

grt_executor* running_executor() { return static_cast<grt_executor*>(*grt_platform_current_slot()); }

// Into the executor's own error message: a failure report is composed around it after the
// kernel returns, so no separate buffer is kept.
void set_kernel_message(grt_executor* x, const char* message) {
  size_t n = 0;
  while (message != nullptr && message[n] != '\0' && n + 1 < sizeof(x->error.message)) {
    x->error.message[n] = message[n];
    ++n;
  }
  x->error.message[n] = '\0';
}

}  // namespace

extern "C" {

void* TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes, int dtype_code_hint,
                               int dtype_bits_hint) {
  (void)device_type;
  (void)device_id;
  (void)dtype_code_hint;
  (void)dtype_bits_hint;
  grt_executor* x = running_executor();
  if (x == nullptr || nbytes > SIZE_MAX) return nullptr;
  // No node of the model plans a workspace: there is no allocator to ask.
  void* p = x->workspace == nullptr ? nullptr : grt_stack_allocate(x->workspace, static_cast<size_t>(nbytes), 16);
  if (p == nullptr) set_kernel_message(x, "workspace request exceeds the node's planned workspace");
  return p;
}

int TVMBackendFreeWorkspace(int device_type, int device_id, void* ptr) {
  (void)device_type;
  (void)device_id;
  grt_executor* x = running_executor();
  if (x == nullptr || x->workspace == nullptr) return -1;
  const size_t violations = x->workspace->lifo_violations;
  grt_stack_free(x->workspace, ptr);
  return x->workspace->lifo_violations == violations ? 0 : -1;
}

void TVMAPISetLastError(const char* msg) {
  grt_executor* x = running_executor();
  if (x != nullptr) set_kernel_message(x, msg);
}

}  // extern "C"
