// Helpers of the binary family's converters (binary_helpers.h).
#include "binary_helpers.h"

#include <algorithm>
#include <cmath>

namespace grt::tools::binary {

bool expect_shared_type(ImportContext& ctx, std::initializer_list<DType> allowed, DType* dtype) {
  *dtype = ctx.dtype(ctx.output_index(0));
  for (int i = 0; i < ctx.input_count(); ++i) {
    if (ctx.dtype(ctx.input_index(i)) != *dtype) return ctx.fail("inputs and output must share one type");
  }
  if (!ctx.error().empty()) return false;  // a type graphrt lacks altogether
  if (std::find(allowed.begin(), allowed.end(), *dtype) == allowed.end()) {
    return ctx.fail(std::string("type ") + dtype_name(*dtype) + " is not supported (TFLM's kernel refuses it)");
  }
  return true;
}

bool is_broadcast_of(const std::vector<std::vector<int64_t>>& operands, const std::vector<int64_t>& out) {
  for (const auto& shape : operands) {
    if (shape.size() > out.size()) return false;
  }
  for (size_t from_end = 1; from_end <= out.size(); ++from_end) {
    const int64_t o = out[out.size() - from_end];
    bool reached = false;  // some operand has the output's extent (or all are 1 and so is it)
    for (const auto& shape : operands) {
      const int64_t d = from_end <= shape.size() ? shape[shape.size() - from_end] : 1;
      if (d != o && d != 1) return false;
      reached = reached || d == o;
    }
    if (!reached) return false;
  }
  return true;
}

bool expect_broadcast(ImportContext& ctx) {
  std::vector<std::vector<int64_t>> operands;
  for (int i = 0; i < ctx.input_count(); ++i) operands.push_back(ctx.shape(ctx.input_index(i)));
  if (!is_broadcast_of(operands, ctx.shape(ctx.output_index(0)))) {
    return ctx.fail("output shape is not the inputs' broadcast");
  }
  return true;
}

bool expect_per_tensor(ImportContext& ctx, int32_t tensor, int32_t low, int32_t high, const char* what) {
  const std::vector<float> scales = ctx.scales(tensor);
  if (scales.size() != 1 || !(scales[0] > 0.0f)) return ctx.fail(std::string(what) + " must be quantized per tensor");
  const int32_t zero_point = ctx.zero_point(tensor);
  if (zero_point < low || zero_point > high) {
    return ctx.fail(std::string(what) + " zero point " + std::to_string(zero_point) + " is outside [" +
                    std::to_string(low) + ", " + std::to_string(high) + "]");
  }
  return true;
}

bool supported_activation(ImportContext& ctx, tflite::ActivationFunctionType activation) {
  using tflite::ActivationFunctionType;
  if (activation == ActivationFunctionType::NONE || activation == ActivationFunctionType::RELU ||
      activation == ActivationFunctionType::RELU_N1_TO_1 || activation == ActivationFunctionType::RELU6) {
    return true;
  }
  return ctx.fail("fused activation " + std::to_string(static_cast<int>(activation)) + " is not supported");
}

void int32_activation_range(tflite::ActivationFunctionType activation, int32_t* low, int32_t* high) {
  using tflite::ActivationFunctionType;
  *low = INT32_MIN;
  *high = INT32_MAX;
  if (activation == ActivationFunctionType::RELU) {
    *low = 0;
  } else if (activation == ActivationFunctionType::RELU6) {
    *low = 0;
    *high = 6;
  } else if (activation == ActivationFunctionType::RELU_N1_TO_1) {
    *low = -1;
    *high = 1;
  }
}

bool multiplier_any(ImportContext& ctx, double real, const char* what, FixedPointMultiplier* out) {
  if (!(real > 0.0) || !std::isfinite(real)) return ctx.fail(std::string(what) + " " + std::to_string(real) + " is not positive");
  *out = quantize_multiplier(real);
  if (out->shift > 31 || out->shift < -31) return ctx.fail(std::string(what) + " is out of range");
  return true;
}

}  // namespace grt::tools::binary
