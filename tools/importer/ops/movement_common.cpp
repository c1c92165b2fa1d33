// Helpers shared by the movement family's converters (see movement_common.h).
#include "movement_common.h"

#include <limits>

namespace grt::tools::movement {

bool expect_operands(ImportContext& ctx, int inputs, int outputs) {
  const auto count_ok = [](int have, int want) { return want < 0 ? have >= 1 : have == want; };
  const auto wanted = [](int want) { return want < 0 ? std::string("at least 1") : std::to_string(want); };
  if (!count_ok(ctx.input_count(), inputs)) {
    return ctx.fail("expects " + wanted(inputs) + " inputs, has " + std::to_string(ctx.input_count()));
  }
  if (!count_ok(ctx.output_count(), outputs)) {
    return ctx.fail("expects " + wanted(outputs) + " outputs, has " + std::to_string(ctx.output_count()));
  }
  for (int i = 0; i < ctx.input_count(); ++i) {
    if (!ctx.has_input(i)) return ctx.fail("input " + std::to_string(i) + " is missing");
  }
  return true;
}

bool expect_dtype(ImportContext& ctx, DType dtype, std::initializer_list<DType> accepted, const char* what) {
  std::string names;
  for (const DType candidate : accepted) {
    if (candidate == dtype) return true;
    names += (names.empty() ? "" : ", ") + std::string(dtype_name(candidate));
  }
  return ctx.fail(std::string(what) + " " + dtype_name(dtype) + " is not supported (TFLM accepts " + names + ")");
}

bool resolve_axis(ImportContext& ctx, int64_t axis, size_t rank, int* resolved) {
  const int64_t r = static_cast<int64_t>(rank);
  const int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) return ctx.fail("axis " + std::to_string(axis) + " is outside a rank-" + std::to_string(rank) + " tensor");
  *resolved = static_cast<int>(a);
  return true;
}

bool constant_integers(ImportContext& ctx, int32_t tensor, const char* what, std::vector<int64_t>* values) {
  if (!ctx.is_constant(tensor)) return ctx.fail(std::string(what) + " must be a constant");
  values->clear();
  const auto widen = [values](const auto& narrow) { values->assign(narrow.begin(), narrow.end()); };
  switch (ctx.dtype(tensor)) {
    case DType::Int8: widen(ctx.constant_values<int8_t>(tensor)); return true;
    case DType::Int16: widen(ctx.constant_values<int16_t>(tensor)); return true;
    case DType::Int32: widen(ctx.constant_values<int32_t>(tensor)); return true;
    case DType::Int64: *values = ctx.constant_values<int64_t>(tensor); return true;
    default: return ctx.fail(std::string(what) + " must be an integer tensor");
  }
}

uint32_t BoxCopies::int_array(const char* what, const std::vector<int64_t>& values) {
  if (const auto found = made_.find(values); found != made_.end()) return found->second;
  std::vector<int32_t> narrow;
  for (const int64_t v : values) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      ctx_.fail("dimension too large");
      return 0;
    }
    narrow.push_back(static_cast<int32_t>(v));
  }
  const uint32_t tensor = ctx_.int_array(ctx_.op_name() + " " + what + " " + std::to_string(made_.size()), narrow);
  made_.emplace(values, tensor);
  return tensor;
}

void BoxCopies::emit(uint32_t in, uint32_t out, const std::vector<int64_t>& begin, const std::vector<int64_t>& counts,
                     const std::vector<int64_t>& strides) {
  const uint32_t first = int_array("begin", begin);
  const uint32_t step = int_array("stride", strides.empty() ? std::vector<int64_t>(begin.size(), 1) : strides);
  const uint32_t count = int_array("count", counts);
  if (!ctx_.error().empty()) return;
  ctx_.add_node("strided_slice", {ArgDef::input(in), ArgDef::output(out), ArgDef::int_array(first), ArgDef::int_array(step),
                                  ArgDef::int_array(count)});
}

uint64_t element_count(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (const int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

}  // namespace grt::tools::movement
