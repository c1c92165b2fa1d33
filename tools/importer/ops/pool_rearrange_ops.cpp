// DEPTH_TO_SPACE, SPACE_TO_DEPTH, MIRROR_PAD and BATCH_TO_SPACE_ND: pure rearrangements. Each
// output element's input element is a sum of one offset per output dimension, so the
// converters write TFLM's index arithmetic (reference/depth_to_space.h, space_to_depth.h,
// micro/kernels/mirror_pad.cc, reference/batch_to_space_nd.h) into offset tables and the
// offset_gather kernels copy.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "pool_ops.h"

namespace grt::tools::pool {
namespace {

// TFLM's DEPTH_TO_SPACE and SPACE_TO_DEPTH: int8 and float32 tensors of rank 4, one type.
bool block_operands(ImportContext& ctx, int32_t* block, std::vector<int64_t>* in_shape, std::vector<int64_t>* strides) {
  if (!expect_operands(ctx, 1)) return false;
  const DType dtype = ctx.dtype(ctx.input_index(0));
  if (dtype != DType::Int8 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (int8 and float32 are, as in TFLM)");
  }
  if (ctx.dtype(ctx.output_index(0)) != dtype) return ctx.fail("input and output types differ");
  *in_shape = ctx.shape(ctx.input_index(0));
  if (in_shape->size() != 4) return ctx.fail("input must be 4-D (NHWC)");
  if (!strides_of(*in_shape, strides)) return ctx.fail("input is too large");
  *block = 0;
  if (const auto* o = ctx.options<tflite::DepthToSpaceOptions>(); o != nullptr) *block = o->block_size();
  if (const auto* o = ctx.options<tflite::SpaceToDepthOptions>(); o != nullptr) *block = o->block_size();
  if (*block <= 0) return ctx.fail("block_size must be positive");
  if (*block > kMaxBlock) return ctx.fail("block_size is too large");
  return true;
}

std::vector<int64_t> multiples(int64_t count, int64_t step) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < count; ++i) v.push_back(i * step);
  return v;
}

// ---- DEPTH_TO_SPACE ----

// Output (n, y, x, c) reads input (n, y / b, x / b, ((y % b) * b + x % b) * C' + c).
bool convert_depth_to_space(ImportContext& ctx) {
  int32_t b = 0;
  std::vector<int64_t> in, stride;
  if (!block_operands(ctx, &b, &in, &stride)) return false;
  if (in[3] % (int64_t{b} * b) != 0) return ctx.fail("input channels are not a multiple of block_size squared");
  const int64_t depth = in[3] / b / b;
  if (!output_is(ctx, {in[0], in[1] * b, in[2] * b, depth})) return false;
  OffsetTables t;
  t.extents = {static_cast<int32_t>(in[0]), static_cast<int32_t>(in[1] * b), static_cast<int32_t>(in[2] * b),
               static_cast<int32_t>(depth)};
  t.offsets = {multiples(in[0], stride[0]), {}, {}};
  for (int64_t y = 0; y < in[1] * b; ++y) t.offsets[1].push_back(y / b * stride[1] + y % b * b * depth);
  for (int64_t x = 0; x < in[2] * b; ++x) t.offsets[2].push_back(x / b * stride[2] + x % b * depth);
  return add_offset_gather(ctx, "depth_to_space", t);
}

// ---- SPACE_TO_DEPTH ----

// Output (n, y, x, (dy * b + dx) * C + c) reads input (n, y * b + dy, x * b + dx, c): the
// output seen as [N, H / b, W / b, b, b, C].
bool convert_space_to_depth(ImportContext& ctx) {
  int32_t b = 0;
  std::vector<int64_t> in, stride;
  if (!block_operands(ctx, &b, &in, &stride)) return false;
  if (in[1] % b != 0 || in[2] % b != 0) return ctx.fail("input height and width are not multiples of block_size");
  if (!output_is(ctx, {in[0], in[1] / b, in[2] / b, in[3] * b * b})) return false;
  OffsetTables t;
  t.extents = {static_cast<int32_t>(in[0]), static_cast<int32_t>(in[1] / b), static_cast<int32_t>(in[2] / b), b, b,
               static_cast<int32_t>(in[3])};
  t.offsets = {multiples(in[0], stride[0]), multiples(in[1] / b, b * stride[1]), multiples(in[2] / b, b * stride[2]),
               multiples(b, stride[1]), multiples(b, stride[2])};
  return add_offset_gather(ctx, "space_to_depth", t);
}

// ---- MIRROR_PAD ----

// TFLM's GetInputDimension: where output index `i` of a dimension of `size` elements padded
// by `before` reads from. offset 1 reflects without the edge (REFLECT), 0 with it (SYMMETRIC).
int64_t mirror_source(int64_t i, int64_t before, int64_t size, int64_t offset) {
  if (i < before) {
    const int64_t original = before + offset - 1;
    return original - std::min(i, original - offset);
  }
  i -= before;
  if (i >= size) {
    i -= size;
    const int64_t original = size - (1 + offset);
    return original - std::min(i, original);
  }
  return i;
}

bool convert_mirror_pad(ImportContext& ctx) {
  if (!expect_operands(ctx, 2)) return false;
  const DType dtype = ctx.dtype(ctx.input_index(0));
  if (dtype != DType::Int8 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (int8 and float32 are, as in TFLM)");
  }
  if (ctx.dtype(ctx.output_index(0)) != dtype) return ctx.fail("input and output types differ");
  const auto* o = ctx.options<tflite::MirrorPadOptions>();
  if (o == nullptr) return ctx.fail("has no MirrorPadOptions");
  const int64_t offset = o->mode() == tflite::MirrorPadMode::REFLECT ? 1 : 0;
  const std::vector<int64_t> in = ctx.shape(ctx.input_index(0));
  const int32_t paddings = ctx.input_index(1);
  if (!ctx.is_constant(paddings)) return ctx.fail("paddings must be a constant");
  const std::vector<int64_t> padding_shape = ctx.shape(paddings);
  if (padding_shape != std::vector<int64_t>{static_cast<int64_t>(in.size()), 2}) {
    return ctx.fail("paddings must be [" + std::to_string(in.size()) + ", 2]");
  }
  std::vector<int64_t> pads;
  if (ctx.dtype(paddings) == DType::Int32) {
    for (const int32_t p : ctx.constant_values<int32_t>(paddings)) pads.push_back(p);
  } else if (ctx.dtype(paddings) == DType::Int64) {
    pads = ctx.constant_values<int64_t>(paddings);
  } else {
    return ctx.fail("paddings must be int32 or int64");
  }
  if (pads.size() != in.size() * 2) return ctx.fail("paddings hold the wrong number of values");
  std::vector<int64_t> out, stride;
  if (!strides_of(in, &stride)) return ctx.fail("input is too large");
  for (size_t d = 0; d < in.size(); ++d) {
    // TFLite's limits: REFLECT pads less than the dimension, SYMMETRIC at most the dimension.
    const int64_t limit = std::max<int64_t>(in[d] - offset, 0);
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0 || pads[2 * d] > limit || pads[2 * d + 1] > limit) {
      return ctx.fail("padding of dimension " + std::to_string(d) + " must be 0 to " + std::to_string(limit));
    }
    out.push_back(in[d] + pads[2 * d] + pads[2 * d + 1]);
  }
  if (!output_is(ctx, out)) return false;
  // The last dimension is a contiguous run when it is not padded; otherwise runs of one.
  const bool last_padded = !in.empty() && (pads[2 * in.size() - 2] != 0 || pads[2 * in.size() - 1] != 0);
  const size_t tabled = in.empty() ? 0 : (last_padded ? in.size() : in.size() - 1);
  OffsetTables t;
  for (size_t d = 0; d < tabled; ++d) {
    t.extents.push_back(static_cast<int32_t>(out[d]));
    t.offsets.emplace_back();
    for (int64_t i = 0; i < out[d]; ++i) {
      t.offsets.back().push_back(mirror_source(i, pads[2 * d], in[d], offset) * stride[d]);
    }
  }
  t.extents.push_back(in.empty() ? 1 : (last_padded ? 1 : static_cast<int32_t>(in.back())));
  return add_offset_gather(ctx, "mirror_pad", t);
}

}  // namespace

void register_pool_rearrange_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::DEPTH_TO_SPACE, convert_depth_to_space, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::SPACE_TO_DEPTH, convert_space_to_depth, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::MIRROR_PAD, convert_mirror_pad, {"int8", "float32"});
}

}  // namespace grt::tools::pool
