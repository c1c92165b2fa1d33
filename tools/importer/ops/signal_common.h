// What the signal converters share (signal_ops.cpp, signal_stream_ops.cpp): their
// FlexBuffers options and the operand checks TFLM's Prepare makes.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_SIGNAL_COMMON_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_SIGNAL_COMMON_H_

// FlexBuffers is used header-only: its locale-independent parsing of numbers written as
// strings needs libflatbuffers, which the importer does not link, and these options hold
// numbers as numbers.
#define FLATBUFFERS_LOCALE_INDEPENDENT 0

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <flatbuffers/flexbuffers.h>

#include "graphrt/tools/import_context.h"

namespace grt::tools::signal {

using tflite::TensorType;

// The operator's FlexBuffers options, checked before anything is read from them.
class SignalOptions {
 public:
  explicit SignalOptions(ImportContext& ctx) : ctx_(ctx) {
    const auto* bytes = ctx.op().custom_options();
    if (bytes == nullptr || bytes->size() == 0 || !flexbuffers::VerifyBuffer(bytes->data(), bytes->size())) {
      ctx.fail("custom options are missing or are not a valid FlexBuffers map");
      return;
    }
    const flexbuffers::Reference root = flexbuffers::GetRoot(bytes->data(), bytes->size());
    if (!root.IsMap()) {
      ctx.fail("custom options are not a FlexBuffers map");
      return;
    }
    map_ = root.AsMap();
    valid_ = true;
  }

  // The integer option `key` in [low, high], or a failure naming it.
  bool integer(const char* key, int64_t low, int64_t high, int64_t* value) {
    if (!valid_) return false;
    const flexbuffers::Reference r = map_[key];
    if (!r.IsInt() && !r.IsUInt() && !r.IsBool()) return ctx_.fail(std::string("option '") + key + "' is missing or not an integer");
    const uint64_t wide = r.IsUInt() ? r.AsUInt64() : 0;
    const int64_t v = r.IsUInt() ? static_cast<int64_t>(wide > INT64_MAX ? INT64_MAX : wide) : r.AsInt64();
    if (v < low || v > high) {
      return ctx_.fail(std::string("option '") + key + "' is " + std::to_string(v) + ", outside [" + std::to_string(low) + ", " +
                       std::to_string(high) + "]");
    }
    *value = v;
    return true;
  }

 private:
  ImportContext& ctx_;
  flexbuffers::Map map_ = flexbuffers::Map::EmptyMap();
  bool valid_ = false;
};

inline bool expect_counts(ImportContext& ctx, int inputs, int outputs) {
  if (ctx.input_count() != inputs || ctx.output_count() != outputs) {
    return ctx.fail("expects " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) + " outputs, has " +
                    std::to_string(ctx.input_count()) + " and " + std::to_string(ctx.output_count()));
  }
  for (int i = 0; i < inputs; ++i) {
    if (!ctx.has_input(i)) return ctx.fail("input " + std::to_string(i) + " is absent");
  }
  return true;
}

// Operand `index` has TFLite type `type` (the check TFLM's Prepare makes).
inline bool expect_type(ImportContext& ctx, int32_t tensor, TensorType type, const char* what) {
  const tflite::Tensor* t = ctx.tensor(tensor);
  if (t != nullptr && t->type() == type) return true;
  return ctx.fail(std::string(what) + " must be " + tflite::EnumNameTensorType(type));
}

// A table argument TFLM reads at every invocation, which graphrt requires to be constant so
// its kernels can trust it.
inline bool expect_constant(ImportContext& ctx, int32_t tensor, const char* what) {
  if (ctx.is_constant(tensor)) return true;
  return ctx.fail(std::string(what) + " must be a constant");
}

inline uint64_t elements(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (const int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

// Delay, Framer, Stacker and OverlapAdd (signal_stream_ops.cpp): the operators whose state
// lives in State tensors the converters create.
void register_stream_ops(ConverterTable& table);

// The signal operators' state (TFLM's persistent kernel buffers): a State tensor of the
// operator's own, `elements` values of `dtype`, zeros at init and after grt_reset_state.
inline uint32_t zero_state(ImportContext& ctx, const std::string& what, DType dtype, int64_t elements) {
  return ctx.graph().add_state(ctx.op_name() + " " + what, dtype, {elements}, {});
}

// A one-value int32 State tensor starting at `initial`.
inline uint32_t count_state(ImportContext& ctx, const std::string& what, int32_t initial) {
  std::vector<uint8_t> bytes(sizeof initial);
  std::memcpy(bytes.data(), &initial, sizeof initial);
  return ctx.graph().add_state(ctx.op_name() + " " + what, DType::Int32, {1}, std::move(bytes));
}

}  // namespace grt::tools::signal

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_SIGNAL_COMMON_H_
