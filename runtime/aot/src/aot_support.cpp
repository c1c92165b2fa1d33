// TVM's backend calls for ahead-of-time models, served by the context the generated run
// function put in this thread's slot. All of it is in one object file: an image that
// calls grt_aot_enter gets these definitions, so no runtime's are pulled in.
#include "graphrt/aot.h"
#include "graphrt/platform.h"

namespace {

constexpr uintptr_t kWorkspaceAlignment = 16;  // what the interpreter's workspace stack gives

grt_aot_context* running_context() { return static_cast<grt_aot_context*>(*grt_platform_current_slot()); }

}  // namespace

extern "C" {

void grt_aot_enter(grt_aot_context* context) {
  void** slot = grt_platform_current_slot();
  context->workspace = nullptr;
  context->workspace_bytes = 0;
  context->workspace_used = 0;
  context->message = nullptr;
  context->previous = *slot;
  *slot = context;
}

int grt_aot_leave(grt_aot_context* context, int result, const char** message) {
  *grt_platform_current_slot() = context->previous;
  if (message != nullptr) *message = result > 0 ? context->message : nullptr;
  return result;
}

// No header per block (the interpreter's stack keeps one), so every request that fits the
// node's planned workspace under the interpreter fits here too.
void* TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes, int dtype_code_hint,
                               int dtype_bits_hint) {
  (void)device_type;
  (void)device_id;
  (void)dtype_code_hint;
  (void)dtype_bits_hint;
  grt_aot_context* c = running_context();
  if (c == nullptr || c->workspace == nullptr) return nullptr;
  const uintptr_t base = reinterpret_cast<uintptr_t>(c->workspace);
  const uintptr_t at = (base + c->workspace_used + kWorkspaceAlignment - 1) & ~(kWorkspaceAlignment - 1);
  const size_t offset = static_cast<size_t>(at - base);
  if (offset > c->workspace_bytes || nbytes > c->workspace_bytes - offset) {
    c->message = "workspace request exceeds the node's planned workspace";
    return nullptr;
  }
  c->workspace_used = offset + static_cast<size_t>(nbytes);
  return c->workspace + offset;
}

// Freeing a block frees it and everything taken after it (kernels free in LIFO order).
int TVMBackendFreeWorkspace(int device_type, int device_id, void* ptr) {
  (void)device_type;
  (void)device_id;
  grt_aot_context* c = running_context();
  if (c == nullptr || c->workspace == nullptr) return -1;
  const uint8_t* p = static_cast<const uint8_t*>(ptr);
  if (p < c->workspace || p >= c->workspace + c->workspace_used) return -1;
  c->workspace_used = static_cast<size_t>(p - c->workspace);
  return 0;
}

// Built-in kernels pass string literals; the pointer is kept, not the text.
void TVMAPISetLastError(const char* msg) {
  grt_aot_context* c = running_context();
  if (c != nullptr) c->message = msg;
}

}  // extern "C"
