// State tensors (TensorKind State: LSTM and SVDF memory) keep their bytes from one run to
// the next. They start from their initial bytes at init, and again on grt_reset_state.
#include <string.h>

#include "executor_internal.h"
#include "message.h"

namespace grt {

void reset_state(grt_executor* x) {
  const fb::Model* m = x->model;
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = m->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::State) continue;
    // Never an input or output (the loader refuses that), so never bound by the caller.
    uint8_t* data = is_dynamic(strategy_of(x)) ? static_cast<uint8_t*>(x->owned[t]) : x->pool_base[tensor->pool()] + tensor->offset();
    const size_t bytes = static_cast<size_t>(tensor_bytes(tensor));
    const auto* initial = m->buffers()->Get(tensor->buffer())->data();
    if (count_of(initial) != 0) {
      memcpy(data, initial->data(), bytes);
    } else {
      memset(data, 0, bytes);
    }
  }
}

}  // namespace grt

extern "C" {

grt_status grt_reset_state(grt_executor* x) {
  if (x == nullptr) return GRT_ERR_ARGUMENT;
  if (!x->memory_held) {
    // The same words as grt_run's (one string in the image).
    return grt::fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "executor holds no memory: it was released; bind an allocator again first");
  }
  grt::reset_state(x);
  return GRT_OK;
}

}  // extern "C"
