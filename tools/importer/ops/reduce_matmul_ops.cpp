// The converter for BATCH_MATMUL (kernels/src/reduce/batch_matmul.cpp). Its operands are
// described to the kernel as strides, worked out here from adj_x, adj_y and the broadcast
// batch dimensions, so nothing is transposed or copied at run time; the fixed-point
// parameters are TFLM's BatchMatMulPrepare's.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/quantize_params.h"
#include "reduce_common.h"

namespace grt::tools::reduce_ops {
namespace {

// ---- BATCH_MATMUL ----

// Row-major strides of a shape, in elements.
std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

struct MatMulLayout {
  std::vector<int32_t> matrix;   // rows, cols, depth, X row, X depth, Y depth, Y column strides
  std::vector<int32_t> batches;  // (extent, X stride, Y stride) per output batch dimension
  std::vector<int64_t> output_shape;
};

// TFLM's BatchMatMulPrepare shape rules: ranks 2 to 5, batch dimensions equal or 1, the
// depths of X (after adj_x) and Y (after adj_y) equal.
bool matmul_layout(ImportContext& ctx, std::vector<int64_t> x, std::vector<int64_t> y, bool adj_x, bool adj_y,
                   MatMulLayout* layout) {
  if (x.size() < 2 || x.size() > 5 || y.size() < 2 || y.size() > 5) return ctx.fail("operands must have rank 2 to 5");
  const size_t rank = std::max(x.size(), y.size());
  x.insert(x.begin(), rank - x.size(), 1);
  y.insert(y.begin(), rank - y.size(), 1);
  const std::vector<int64_t> x_strides = strides_of(x);
  const std::vector<int64_t> y_strides = strides_of(y);
  const int64_t x_inner = x[rank - 1];
  const int64_t y_inner = y[rank - 1];
  const int64_t rows = adj_x ? x_inner : x[rank - 2];
  const int64_t depth = adj_x ? x[rank - 2] : x_inner;
  const int64_t y_depth = adj_y ? y_inner : y[rank - 2];
  const int64_t cols = adj_y ? y[rank - 2] : y_inner;
  if (depth != y_depth) {
    return ctx.fail("X has depth " + std::to_string(depth) + ", Y has " + std::to_string(y_depth));
  }
  // X(i, k) and Y(k, j) as strides into the stored (possibly transposed) matrices.
  const int64_t values[] = {rows, cols, depth, adj_x ? 1 : x_inner, adj_x ? x_inner : 1, adj_y ? 1 : y_inner,
                            adj_y ? y_inner : 1};
  for (const int64_t v : values) layout->matrix.push_back(static_cast<int32_t>(v));
  for (size_t d = 0; d + 2 < rank; ++d) {
    if (x[d] != y[d] && x[d] != 1 && y[d] != 1) {
      return ctx.fail("batch dimension " + std::to_string(d) + " does not broadcast: " + std::to_string(x[d]) + " and " +
                      std::to_string(y[d]));
    }
    const int64_t extent = x[d] == 1 ? y[d] : x[d];
    layout->output_shape.push_back(extent);
    if (extent == 1) continue;  // nothing to walk
    layout->batches.push_back(static_cast<int32_t>(extent));
    layout->batches.push_back(static_cast<int32_t>(x[d] == 1 ? 0 : x_strides[d]));
    layout->batches.push_back(static_cast<int32_t>(y[d] == 1 ? 0 : y_strides[d]));
  }
  layout->output_shape.push_back(rows);
  layout->output_shape.push_back(cols);
  return true;
}

bool convert_batch_matmul(ImportContext& ctx) {
  if (!expect_arity(ctx, 2, 2)) return false;
  const int32_t lhs = ctx.input_index(0);
  const int32_t rhs = ctx.input_index(1);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(lhs);
  if (dtype != DType::Int8 && dtype != DType::Int16 && dtype != DType::Float32) {
    return ctx.fail("supports int8, int16 and float32 only");
  }
  // TFLM: no hybrid (float X, int8 Y) and no int32 output.
  if (ctx.dtype(rhs) != dtype || ctx.dtype(output) != dtype) return ctx.fail("X, Y and output types differ");
  const auto* o = ctx.options<tflite::BatchMatMulOptions>();
  const bool adj_x = o != nullptr && o->adj_x();
  const bool adj_y = o != nullptr && o->adj_y();
  const std::vector<int64_t> x_shape = ctx.shape(lhs);
  const std::vector<int64_t> y_shape = ctx.shape(rhs);
  const int64_t x_count = element_count(x_shape);
  const int64_t y_count = element_count(y_shape);
  if (x_count < 0 || y_count < 0) return ctx.fail("operand shapes are negative or too large");
  if (x_count == 0 || y_count == 0) return ctx.fail("empty operands are not supported");
  MatMulLayout layout;
  if (!matmul_layout(ctx, x_shape, y_shape, adj_x, adj_y, &layout)) return false;
  const int64_t out_count = element_count(ctx.shape(output));
  if (out_count < 0 || element_count(layout.output_shape) != out_count) {
    return ctx.fail("output has " + std::to_string(out_count) + " elements, the product gives " +
                    std::to_string(element_count(layout.output_shape)));
  }
  const std::string name = ctx.op_name();
  std::vector<ArgDef> args = {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)),
                              ArgDef::int_array(ctx.int_array(name + " matrix layout", layout.matrix)),
                              ArgDef::int_array(ctx.int_array(name + " batch layout", layout.batches))};
  if (dtype != DType::Float32) {
    const int32_t type_max = dtype == DType::Int8 ? 127 : 32767;
    const int32_t zero_points[] = {ctx.zero_point(lhs), ctx.zero_point(rhs), ctx.zero_point(output)};
    for (const int32_t zp : zero_points) {
      if (zp < -type_max - 1 || zp > type_max) return ctx.fail("zero point out of the type's range");
      if (dtype == DType::Int16 && zp != 0) return ctx.fail("int16 operands and output must have zero point 0");
    }
    // GetQuantizedConvolutionMultipler: the scales' product is taken in float.
    const double product_scale = static_cast<double>(ctx.scale(lhs) * ctx.scale(rhs));
    if (!(product_scale > 0.0) || !(ctx.scale(output) > 0.0f)) return ctx.fail("operands and output must be quantized");
    const FixedPointMultiplier m = quantize_multiplier(product_scale / static_cast<double>(ctx.scale(output)));
    if (m.shift < -31 || m.shift > (dtype == DType::Int8 ? 30 : 7)) return ctx.fail("requantization scale out of range");
    args.push_back(ArgDef::integer(-zero_points[0]));
    args.push_back(ArgDef::integer(-zero_points[1]));
    args.push_back(ArgDef::integer(m.multiplier));
    args.push_back(ArgDef::integer(m.shift));
    args.push_back(ArgDef::integer(zero_points[2]));
  }
  ctx.add_node(std::string("batch_matmul_") + type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

}  // namespace

void register_matmul_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::BATCH_MATMUL, convert_batch_matmul, {"int8", "int16", "float32"});
}

}  // namespace grt::tools::reduce_ops
