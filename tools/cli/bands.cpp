#include "bands.h"

#include <cstdio>
#include <vector>

namespace grt::cli {

bool band_plan_for_budget(const tools::ModelDef& model, const tools::PlanOptions& options, uint64_t budget, tools::BandPlan* chosen,
                          std::string* error) {
  std::vector<tools::BandPlan> ladder;
  if (!tools::band_plan_ladder(model, options, kMostExtraMacsPercent, &ladder, error, budget)) return false;
  for (const tools::BandPlan& plan : ladder) {  // fewest extra MACs first
    if (plan.activations <= budget) {
      *chosen = plan;
      return true;
    }
  }
  const tools::BandPlan& smallest = ladder.back();
  *error = "--memory-budget " + std::to_string(budget) + ": the smallest plan reachable needs " + std::to_string(smallest.activations) +
           " bytes (" + band_plan_summary(smallest) + ")";
  return false;
}

std::string band_plan_summary(const tools::BandPlan& plan) {
  if (plan.steps.empty()) return "no bands";
  char extra[32];
  std::snprintf(extra, sizeof extra, "%.1f", plan.extra_percent());
  return std::to_string(plan.steps.size()) + (plan.steps.size() == 1 ? " chain" : " chains") + " cut into bands, " +
         std::to_string(plan.nodes) + " nodes, " + extra + " % extra MACs, " + std::to_string(plan.copied_bytes) + " bytes of kept rows moved";
}

}  // namespace grt::cli
