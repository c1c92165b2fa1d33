// BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND, as TFLM supports them (reference/
// batch_to_space_nd.h, space_to_batch_nd.h): 3-D [N, H, C] or 4-D [N, H, W, C] int8 or
// float32 tensors with constant block shapes, crops and paddings. BATCH_TO_SPACE_ND is a pure
// rearrangement (offset tables for the offset_gather kernel); SPACE_TO_BATCH_ND also fills
// padding, so it has a kernel of its own (kernels/src/pool/space_to_batch_nd.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "pool_ops.h"

namespace grt::tools::pool {
namespace {

// The 3-D or 4-D operands of both operators, with the spatial parameters read as TFLM reads
// them: a 3-D tensor has one spatial dimension (height) and a width of 1.
struct BatchSpace {
  std::vector<int64_t> in;  // as given (rank 3 or 4)
  int64_t n = 0, h = 0, w = 1, c = 0;
  int32_t block_h = 1, block_w = 1;
  int32_t before_h = 0, after_h = 0, before_w = 0, after_w = 0;  // crops or paddings
};

bool batch_space_operands(ImportContext& ctx, const char* margins, BatchSpace* s) {
  if (!expect_operands(ctx, 3)) return false;
  const DType dtype = ctx.dtype(ctx.input_index(0));
  if (dtype != DType::Int8 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (int8 and float32 are, as in TFLM)");
  }
  if (ctx.dtype(ctx.output_index(0)) != dtype) return ctx.fail("input and output types differ");
  s->in = ctx.shape(ctx.input_index(0));
  const size_t rank = s->in.size();
  if (rank != 3 && rank != 4) return ctx.fail("input must be 3-D or 4-D");
  const size_t spatial = rank - 2;
  std::vector<int32_t> block, margin;
  if (!constant_int32(ctx, 1, "block_shape", &block) || !constant_int32(ctx, 2, margins, &margin)) return false;
  if (block.size() != spatial) return ctx.fail("block_shape must hold " + std::to_string(spatial) + " values");
  if (margin.size() != 2 * spatial) {
    return ctx.fail(std::string(margins) + " must hold " + std::to_string(2 * spatial) + " values");
  }
  for (const int32_t b : block) {
    if (b < 1 || b > kMaxBlock) return ctx.fail("block_shape must be 1 to " + std::to_string(kMaxBlock));
  }
  for (const int32_t m : margin) {
    if (m < 0) return ctx.fail(std::string(margins) + " must not be negative");
  }
  s->n = s->in[0];
  s->h = s->in[1];
  s->c = s->in[rank - 1];
  s->block_h = block[0];
  s->before_h = margin[0];
  s->after_h = margin[1];
  if (rank == 4) {
    s->w = s->in[2];
    s->block_w = block[1];
    s->before_w = margin[2];
    s->after_w = margin[3];
  }
  std::vector<int64_t> strides;
  if (!strides_of(s->in, &strides)) return ctx.fail("input is too large");
  return true;
}

// The output shape in the input's rank.
std::vector<int64_t> shaped(const BatchSpace& s, int64_t n, int64_t h, int64_t w) {
  if (s.in.size() == 3) return {n, h, s.c};
  return {n, h, w, s.c};
}

// ---- BATCH_TO_SPACE_ND ----

// Output (b, y, x) reads input batch ((y + crop_top) % bh * bw + (x + crop_left) % bw) * N' + b
// at ((y + crop_top) / bh, (x + crop_left) / bw): a sum of one term per output dimension.
bool convert_batch_to_space_nd(ImportContext& ctx) {
  BatchSpace s;
  if (!batch_space_operands(ctx, "crops", &s)) return false;
  const int64_t blocks = int64_t{s.block_h} * s.block_w;
  if (s.n % blocks != 0) return ctx.fail("input batches are not a multiple of the block size");
  const int64_t out_n = s.n / blocks;
  const int64_t out_h = s.h * s.block_h - s.before_h - s.after_h;
  const int64_t out_w = s.w * s.block_w - s.before_w - s.after_w;
  if (out_h < 0 || out_w < 0) return ctx.fail("crops exceed the image");
  if (!output_is(ctx, shaped(s, out_n, out_h, out_w))) return false;
  const int64_t stride_w = s.c, stride_h = s.w * s.c, stride_n = s.h * s.w * s.c;
  OffsetTables t;
  t.offsets.resize(2);
  for (int64_t b = 0; b < out_n; ++b) t.offsets[0].push_back(b * stride_n);
  for (int64_t y = 0; y < out_h; ++y) {
    const int64_t row = y + s.before_h;
    t.offsets[1].push_back(row % s.block_h * s.block_w * out_n * stride_n + row / s.block_h * stride_h);
  }
  t.extents = {static_cast<int32_t>(out_n), static_cast<int32_t>(out_h)};
  if (s.in.size() == 4) {
    t.offsets.emplace_back();
    for (int64_t x = 0; x < out_w; ++x) {
      const int64_t column = x + s.before_w;
      t.offsets[2].push_back(column % s.block_w * out_n * stride_n + column / s.block_w * stride_w);
    }
    t.extents.push_back(static_cast<int32_t>(out_w));
  }
  t.extents.push_back(static_cast<int32_t>(s.c));
  return add_offset_gather(ctx, "batch_to_space_nd", t);
}

// ---- SPACE_TO_BATCH_ND ----

bool convert_space_to_batch_nd(ImportContext& ctx) {
  BatchSpace s;
  if (!batch_space_operands(ctx, "paddings", &s)) return false;
  const int64_t padded_h = s.h + s.before_h + s.after_h;
  const int64_t padded_w = s.w + s.before_w + s.after_w;
  if (padded_h % s.block_h != 0 || padded_w % s.block_w != 0) {
    return ctx.fail("padded image is not a multiple of the block shape");
  }
  const int64_t out_n = s.n * s.block_h * s.block_w;
  if (!output_is(ctx, shaped(s, out_n, padded_h / s.block_h, padded_w / s.block_w))) return false;
  // The reference fills padding with memset of the output zero point (0 for float32).
  const int64_t pad_byte = ctx.zero_point(ctx.output_index(0)) & 0xFF;
  ctx.add_node("space_to_batch_nd",
               {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(s.block_h),
                ArgDef::integer(s.block_w), ArgDef::integer(s.before_h), ArgDef::integer(s.before_w),
                ArgDef::integer(pad_byte)});
  return ctx.error().empty();
}

}  // namespace

void register_pool_batch_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::BATCH_TO_SPACE_ND, convert_batch_to_space_nd, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::SPACE_TO_BATCH_ND, convert_space_to_batch_nd, {"int8", "float32"});
}

}  // namespace grt::tools::pool
