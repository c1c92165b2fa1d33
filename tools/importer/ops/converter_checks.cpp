// The converters' shared checks (see converter_checks.h).
#include "converter_checks.h"

namespace grt::tools {

bool expect_arity(ImportContext& ctx, int min_inputs, int max_inputs) {
  if (ctx.input_count() < min_inputs || ctx.input_count() > max_inputs) {
    return ctx.fail("expects " + std::to_string(min_inputs) +
                    (min_inputs == max_inputs ? "" : " to " + std::to_string(max_inputs)) + " inputs, has " +
                    std::to_string(ctx.input_count()));
  }
  if (ctx.output_count() != 1) return ctx.fail("expects 1 output, has " + std::to_string(ctx.output_count()));
  for (int i = 0; i < min_inputs; ++i) {
    if (!ctx.has_input(i)) return ctx.fail("input " + std::to_string(i) + " is missing");
  }
  return true;
}

std::string type_suffix(DType dtype) {
  switch (dtype) {
    case DType::Int8: return "s8";
    case DType::UInt8: return "u8";
    case DType::Int16: return "s16";
    case DType::Int32: return "s32";
    case DType::Int64: return "i64";
    case DType::Float32: return "f32";
    case DType::Bool: return "bool";
    default: return dtype_name(dtype);
  }
}

bool multiplier_below_one(ImportContext& ctx, double real, const char* what, FixedPointMultiplier* out) {
  if (!(real > 0.0 && real < 1.0)) return ctx.fail(std::string(what) + " " + std::to_string(real) + " is not in (0, 1)");
  *out = quantize_multiplier(real);
  if (out->shift > 0 || out->shift < -31) return ctx.fail(std::string(what) + " is out of range");
  return true;
}

}  // namespace grt::tools
