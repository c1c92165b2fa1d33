#include "cli_models.h"

#include <gtest/gtest.h>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/planner.h"

namespace grt::test {

tools::ModelDef every_kind_model() {
  tools::ModelDef m;
  m.name = "every_kind";
  m.producer = "graphrt cli tests";
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 16});
  const uint32_t r = m.add_alias("r", x, {4, 4});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {4, 4});
  const uint32_t w = m.add_constant_values<int32_t>("w", tools::DType::Int32, {3}, {7, 8, 9});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("noop", {tools::ArgDef::input(w), tools::ArgDef::integer(7), tools::ArgDef::real(0.5), tools::ArgDef::none()}, "inspect_me");
  m.add_node("copy", {tools::ArgDef::input(r), tools::ArgDef::output(y)}, "reshape_copy");
  tools::plan_default(&m);
  return m;
}

grt_requirements requirements_of(const tools::ModelDef& model, grt_strategy strategy) {
  const tools::AlignedBytes blob(tools::serialize(model));
  grt_requirements r{};
  grt_error error{};
  EXPECT_EQ(grt_model_requirements(blob.data(), blob.size(), strategy, &r, &error), GRT_OK) << error.message;
  return r;
}

grt_page_budget page_budget_of(const tools::ModelDef& model, size_t page_size) {
  const tools::AlignedBytes blob(tools::serialize(model));
  grt_page_budget budget{};
  grt_error error{};
  grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error);
  tools::AlignedBytes scratch(budget.scratch_bytes);
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, scratch.data(),
                                    scratch.size(), &budget, &error),
            GRT_OK)
      << error.message;
  return budget;
}

}  // namespace grt::test
