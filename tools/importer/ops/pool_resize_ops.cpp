// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR: every output row's and column's source in the
// input is computed here with TFLM's own arithmetic (reference/resize_nearest_neighbor.h,
// reference/resize_bilinear.h: the same float expressions, the same 10-bit fixed point), so
// the kernels only copy or blend and match TFLM bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "pool_ops.h"

namespace grt::tools::pool {
namespace {

struct ResizeShapes {
  std::vector<int64_t> in;  // [N, H, W, C]
  int32_t out_h = 0, out_w = 0;
};

// Input 0 is a 4-D image, input 1 the constant [height, width]; the output must be the
// input resized to it.
bool resize_shapes(ImportContext& ctx, ResizeShapes* s) {
  if (!expect_operands(ctx, 2)) return false;
  s->in = ctx.shape(ctx.input_index(0));
  if (s->in.size() != 4) return ctx.fail("input must be 4-D (NHWC)");
  if (ctx.shape(ctx.input_index(1)).size() != 1) return ctx.fail("size must be 1-D");
  std::vector<int32_t> size;
  if (!constant_int32(ctx, 1, "size", &size)) return false;
  if (size.size() != 2) return ctx.fail("size must hold 2 values (height, width)");
  if (size[0] <= 0 || size[1] <= 0) return ctx.fail("size must be positive");
  if (s->in[1] <= 0 || s->in[2] <= 0) return ctx.fail("input image is empty");
  s->out_h = size[0];
  s->out_w = size[1];
  const std::vector<int64_t> expected = {s->in[0], size[0], size[1], s->in[3]};
  if (ctx.shape(ctx.output_index(0)) != expected) return ctx.fail("output shape is not the input resized to size");
  if (!fits_tables(ctx, s->in) || !fits_tables(ctx, expected)) return false;
  // The most any resize writes: 12 bytes per output row and column (bilinear's two sources
  // and a weight or fraction), asked before the tables are built.
  if (!ctx.fits_written(uint64_t{12} * (static_cast<uint64_t>(s->out_h) + static_cast<uint64_t>(s->out_w)), "its resize tables")) {
    return false;
  }
  if (ctx.dtype(ctx.output_index(0)) != ctx.dtype(ctx.input_index(0))) return ctx.fail("input and output types differ");
  return true;
}

// ---- RESIZE_NEAREST_NEIGHBOR ----

// TFLM's GetNearestNeighbor, float for float.
int64_t nearest_source(int32_t out_index, int64_t in_size, int32_t out_size, bool align_corners, bool half_pixel) {
  const float scale = (align_corners && out_size > 1)
                          ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
                          : static_cast<float>(in_size) / static_cast<float>(out_size);
  const float offset = half_pixel ? 0.5f : 0.0f;
  const float position = (static_cast<float>(out_index) + offset) * scale;
  int64_t source =
      align_corners ? static_cast<int32_t>(std::round(position)) : static_cast<int32_t>(std::floor(position));
  source = std::min<int64_t>(source, in_size - 1);
  if (half_pixel) source = std::max<int64_t>(source, 0);
  return source;
}

bool convert_resize_nearest_neighbor(ImportContext& ctx) {
  ResizeShapes s;
  if (!resize_shapes(ctx, &s)) return false;
  const DType dtype = ctx.dtype(ctx.input_index(0));
  if (dtype != DType::Int8 && dtype != DType::Int16 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (int8, int16 and float32 are)");
  }
  const auto* o = ctx.options<tflite::ResizeNearestNeighborOptions>();
  const bool align_corners = o != nullptr && o->align_corners();
  const bool half_pixel = o != nullptr && o->half_pixel_centers();
  std::vector<int64_t> strides;
  strides_of(s.in, &strides);  // resize_shapes checked the size
  OffsetTables t;
  t.extents = {static_cast<int32_t>(s.in[0]), s.out_h, s.out_w, static_cast<int32_t>(s.in[3])};
  t.offsets.resize(3);
  for (int64_t n = 0; n < s.in[0]; ++n) t.offsets[0].push_back(n * strides[0]);
  for (int32_t y = 0; y < s.out_h; ++y) {
    t.offsets[1].push_back(nearest_source(y, s.in[1], s.out_h, align_corners, half_pixel) * strides[1]);
  }
  for (int32_t x = 0; x < s.out_w; ++x) {
    t.offsets[2].push_back(nearest_source(x, s.in[2], s.out_w, align_corners, half_pixel) * strides[2]);
  }
  return add_offset_gather(ctx, "resize_nearest_neighbor", t);
}

// ---- RESIZE_BILINEAR ----

// TFLM's ComputeInterpolationValues for float32: the source position, its two neighbours and
// the fraction past the first.
struct FloatSource {
  int32_t low, high;
  float fraction;
};

FloatSource float_source(int32_t out_index, float scale, bool half_pixel, int64_t in_size) {
  const float value = static_cast<float>(out_index);
  const float position = half_pixel ? (value + 0.5f) * scale - 0.5f : value * scale;
  FloatSource s;
  s.low = std::max(static_cast<int32_t>(std::floor(position)), int32_t{0});
  s.high = std::min(static_cast<int32_t>(std::ceil(position)), static_cast<int32_t>(in_size - 1));
  s.fraction = position - static_cast<float>(s.low);
  return s;
}

float float_scale(int64_t in_size, int32_t out_size, bool align_corners) {
  if (align_corners && out_size > 1) return static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1);
  return static_cast<float>(in_size) / static_cast<float>(out_size);
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

bool convert_resize_bilinear_f32(ImportContext& ctx, const ResizeShapes& s, bool align_corners, bool half_pixel) {
  std::vector<int32_t> rows, cols;
  std::vector<float> row_fractions, col_fractions;
  const float height_scale = float_scale(s.in[1], s.out_h, align_corners);
  const float width_scale = float_scale(s.in[2], s.out_w, align_corners);
  for (int32_t y = 0; y < s.out_h; ++y) {
    const FloatSource f = float_source(y, height_scale, half_pixel, s.in[1]);
    rows.insert(rows.end(), {f.low, f.high});
    row_fractions.push_back(f.fraction);
  }
  for (int32_t x = 0; x < s.out_w; ++x) {
    const FloatSource f = float_source(x, width_scale, half_pixel, s.in[2]);
    cols.insert(cols.end(), {f.low, f.high});
    col_fractions.push_back(f.fraction);
  }
  const std::string name = ctx.op_name();
  ctx.add_node(
      "resize_bilinear_f32",
      {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
       ArgDef::int_array(ctx.int_array(name + " rows", rows)), ArgDef::int_array(ctx.int_array(name + " cols", cols)),
       ArgDef::input(ctx.constant(name + " row fractions", DType::Float32, {s.out_h}, float_bytes(row_fractions))),
       ArgDef::input(ctx.constant(name + " col fractions", DType::Float32, {s.out_w}, float_bytes(col_fractions)))});
  return ctx.error().empty();
}

// TFLM's ResizeBilinearInteger: the scale in 1/1024ths rounded to nearest, then per output
// index the position in 1/1024ths, its two neighbours (truncating division) and the weight
// of the second, appended as (low, high, weight). int32 as in TFLM; larger sizes are refused.
bool append_integer_sources(ImportContext& ctx, int64_t in_size, int32_t out_size, bool align_corners, bool half_pixel,
                            std::vector<int32_t>* table) {
  constexpr int64_t kOne = 1 << 10;
  int64_t scale = (kOne * in_size + out_size / 2) / out_size;
  if (align_corners && out_size > 1) scale = (kOne * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
  for (int64_t i = 0; i < out_size; ++i) {
    const int64_t position = half_pixel ? i * scale + scale / 2 - kOne / 2 : i * scale;
    if (position + kOne > INT32_MAX) return ctx.fail("image is too large for 10-bit fixed-point positions");
    const int64_t low = std::max<int64_t>(position / kOne, 0);
    const int64_t high = std::min<int64_t>((position + kOne - 1) / kOne, in_size - 1);
    if (low > in_size - 1) return ctx.fail("a source position lies past the input");
    table->insert(table->end(),
                  {static_cast<int32_t>(low), static_cast<int32_t>(high), static_cast<int32_t>(position - kOne * low)});
  }
  return true;
}

bool convert_resize_bilinear(ImportContext& ctx) {
  ResizeShapes s;
  if (!resize_shapes(ctx, &s)) return false;
  const auto* o = ctx.options<tflite::ResizeBilinearOptions>();
  const bool align_corners = o != nullptr && o->align_corners();
  const bool half_pixel = o != nullptr && o->half_pixel_centers();
  if (align_corners && half_pixel) return ctx.fail("half_pixel_centers and align_corners cannot both be set");
  const DType dtype = ctx.dtype(ctx.input_index(0));
  if (dtype == DType::Float32) return convert_resize_bilinear_f32(ctx, s, align_corners, half_pixel);
  if (dtype != DType::Int8) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (int8 and float32 are, as in TFLM)");
  }
  std::vector<int32_t> rows, cols;
  if (!append_integer_sources(ctx, s.in[1], s.out_h, align_corners, half_pixel, &rows) ||
      !append_integer_sources(ctx, s.in[2], s.out_w, align_corners, half_pixel, &cols)) {
    return false;
  }
  const std::string name = ctx.op_name();
  ctx.add_node("resize_bilinear_s8", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                                      ArgDef::int_array(ctx.int_array(name + " rows", rows)),
                                      ArgDef::int_array(ctx.int_array(name + " cols", cols))});
  return ctx.error().empty();
}

}  // namespace

void register_pool_resize_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::RESIZE_NEAREST_NEIGHBOR, convert_resize_nearest_neighbor, {"int8", "int16", "float32"});
  table.add(tflite::BuiltinOperator::RESIZE_BILINEAR, convert_resize_bilinear, {"int8", "float32"});
}

}  // namespace grt::tools::pool
