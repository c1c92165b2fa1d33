#include "one_node.h"

#include <gtest/gtest.h>

#include "graphrt/tools/planner.h"

namespace grt::test {

Loaded::Loaded(tools::ModelDef def) {
  tools::plan_default(&def);
  blob_ = to_blob(def);
  run_ = std::make_unique<StaticRun>(blob_);
}

grt_status Loaded::run() { return grt_run(run_->executor); }

std::string Loaded::run_message() const { return grt_last_error(run_->executor)->message; }

std::string refusal(const OneNode& model) {
  Loaded loaded(model.def);
  if (loaded.status() == GRT_OK) return {};
  EXPECT_EQ(loaded.status(), GRT_ERR_KERNEL_ARGS) << loaded.message();
  return loaded.message();
}

}  // namespace grt::test
