// Operators that only reinterpret a shape: the output shares the input's bytes (an alias,
// no node), or gets a `copy` node where the loader needs a tensor of its own.
#include "graphrt/tools/import_context.h"

namespace grt::tools {
namespace {

// RESHAPE, SQUEEZE and EXPAND_DIMS: the output tensor's static shape already says
// everything; the shape/axis inputs are not needed.
bool convert_reshape_like(ImportContext& ctx) {
  if (ctx.input_count() < 1 || !ctx.has_input(0)) return ctx.fail("needs a data input");
  if (ctx.output_count() != 1) return ctx.fail("expects 1 output, has " + std::to_string(ctx.output_count()));
  ctx.make_alias(ctx.output_index(0), ctx.input_index(0));
  return ctx.error().empty();
}

}  // namespace

void register_shape_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::RESHAPE, convert_reshape_like, every_dtype());
  table.add(tflite::BuiltinOperator::SQUEEZE, convert_reshape_like, every_dtype());
  table.add(tflite::BuiltinOperator::EXPAND_DIMS, convert_reshape_like, every_dtype());
}

}  // namespace grt::tools
