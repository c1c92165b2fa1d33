// Axis resolution, reduction walks and the MEAN / SUM converter (see reduce_common.h). The
// fixed-point parameters follow TFLM's PrepareMeanOrSumHelper and QuantizedMeanOrSum.
#include "reduce_common.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graphrt/tools/quantize_params.h"

namespace grt::tools::reduce_ops {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (const int64_t d : shape) {
    if (d < 0) return -1;
    n = capped_product(n, d);
  }
  return n > std::numeric_limits<int32_t>::max() ? -1 : n;
}

int64_t capped_product(int64_t a, int64_t b) {
  constexpr int64_t kCap = int64_t{std::numeric_limits<int32_t>::max()} + 1;
  return a == 0 || b == 0 ? 0 : (a >= kCap || b >= kCap || a * b >= kCap ? kCap : a * b);
}

bool resolve_axes(ImportContext& ctx, int32_t axis_tensor, size_t rank, std::vector<bool>* reduced) {
  std::vector<int32_t> axes;
  // An empty axis tensor has no bytes to be a constant with: it reduces nothing.
  if (element_count(ctx.shape(axis_tensor)) != 0) {
    // TFLM's reductions take int32 axes only.
    if (!ctx.is_constant(axis_tensor) || ctx.dtype(axis_tensor) != DType::Int32) {
      return ctx.fail("axis must be a constant int32 tensor");
    }
    axes = ctx.constant_values<int32_t>(axis_tensor);
  }
  reduced->assign(rank, false);
  // TFLM resolves no axes for a scalar input.
  if (rank == 0) return true;
  const auto r = static_cast<int64_t>(rank);
  for (const int32_t given : axes) {
    const int64_t a = given < 0 ? given + r : given;
    if (a < 0 || a >= r) return ctx.fail("axis " + std::to_string(given) + " is out of range for rank " + std::to_string(r));
    (*reduced)[static_cast<size_t>(a)] = true;
  }
  return true;
}

ReductionWalk reduction_walk(const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  ReductionWalk walk;
  int64_t stride = 1;
  std::vector<int64_t> strides(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    // Capped: only an empty input (never read) can have strides past INT32_MAX.
    strides[d] = std::min<int64_t>(stride, std::numeric_limits<int32_t>::max());
    stride = capped_product(stride, shape[d]);
  }
  // Which walk took the last dimension appended: a neighbour of the same kind merges into it
  // (row-major: its stride is this dimension's extent * stride).
  std::vector<int32_t>* previous = nullptr;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (reduced[d]) {
      walk.count = capped_product(walk.count, shape[d]);
    } else {
      walk.outputs = capped_product(walk.outputs, shape[d]);
    }
    if (shape[d] == 1) continue;
    std::vector<int32_t>* target = reduced[d] ? &walk.reduced : &walk.kept;
    if (target == previous) {
      const int64_t merged = capped_product(target->at(target->size() - 2), shape[d]);
      target->at(target->size() - 2) = static_cast<int32_t>(std::min<int64_t>(merged, std::numeric_limits<int32_t>::max()));
      target->back() = static_cast<int32_t>(strides[d]);
    } else {
      target->push_back(static_cast<int32_t>(shape[d]));
      target->push_back(static_cast<int32_t>(strides[d]));
    }
    previous = target;
  }
  return walk;
}

bool reduction_walk_for(ImportContext& ctx, ReductionWalk* walk) {
  const int32_t input = ctx.input_index(0);
  const std::vector<int64_t> shape = ctx.shape(input);
  if (element_count(shape) < 0) return ctx.fail("input shape is negative or too large");
  std::vector<bool> reduced;
  if (!resolve_axes(ctx, ctx.input_index(1), shape.size(), &reduced)) return false;
  *walk = reduction_walk(shape, reduced);
  const int64_t out_count = element_count(ctx.shape(ctx.output_index(0)));
  if (out_count < 0) return ctx.fail("output shape is negative or too large");
  if (walk->outputs != out_count) {
    return ctx.fail("output has " + std::to_string(out_count) + " elements, the reduction gives " +
                    std::to_string(walk->outputs));
  }
  return true;
}

std::vector<ArgDef> reduction_args(ImportContext& ctx, const ReductionWalk& walk) {
  const std::string name = ctx.op_name();
  return {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
          ArgDef::int_array(ctx.int_array(name + " kept walk", walk.kept)),
          ArgDef::int_array(ctx.int_array(name + " reduced walk", walk.reduced))};
}

namespace {

// QuantizedMeanOrSum's folding of 1 / count into the multiplier, with at most 32 bits of
// extra precision and the shift kept >= -31.
bool fold_mean_count(ImportContext& ctx, int64_t count, FixedPointMultiplier* m) {
  int shift = 63 - std::countl_zero(static_cast<uint64_t>(count));
  shift = std::min(shift, 32);
  shift = std::min(shift, 31 + m->shift);
  if (shift < 0) return ctx.fail("input / output scale is too small to average");
  m->multiplier = static_cast<int32_t>((static_cast<int64_t>(m->multiplier) << shift) / count);
  m->shift -= shift;
  return true;
}

}  // namespace

bool convert_mean_or_sum(ImportContext& ctx, bool mean) {
  if (!expect_arity(ctx, 2, 2)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (dtype != DType::Int8 && dtype != DType::Int16 && dtype != DType::Float32) {
    return ctx.fail("supports int8, int16 and float32 only");
  }
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  ReductionWalk walk;
  if (!reduction_walk_for(ctx, &walk)) return false;
  const std::string kernel = std::string(mean ? "mean_" : "sum_") + type_suffix(dtype);
  std::vector<ArgDef> args = reduction_args(ctx, walk);
  if (dtype != DType::Float32) {
    const float input_scale = ctx.scale(input);
    const float output_scale = ctx.scale(output);
    if (!(input_scale > 0.0f) || !(output_scale > 0.0f)) return ctx.fail("input and output must be quantized");
    const int32_t type_min = dtype == DType::Int8 ? -128 : -32768;
    const int32_t type_max = dtype == DType::Int8 ? 127 : 32767;
    const int32_t input_zero_point = ctx.zero_point(input);
    const int32_t output_zero_point = ctx.zero_point(output);
    if (input_zero_point < type_min || input_zero_point > type_max || output_zero_point < type_min ||
        output_zero_point > type_max) {
      return ctx.fail("zero point out of the type's range");
    }
    FixedPointMultiplier m = quantize_multiplier(static_cast<double>(input_scale) / static_cast<double>(output_scale));
    // TFLM folds only when there is something to average.
    if (mean && walk.count > 0 && !fold_mean_count(ctx, walk.count, &m)) return false;
    if (m.shift < -31 || m.shift > 30) return ctx.fail("requantization scale out of range");
    args.push_back(ArgDef::integer(input_zero_point));
    args.push_back(ArgDef::integer(m.multiplier));
    args.push_back(ArgDef::integer(m.shift));
    args.push_back(ArgDef::integer(output_zero_point));
  }
  ctx.add_node(kernel, std::move(args));
  return ctx.error().empty();
}

}  // namespace grt::tools::reduce_ops
