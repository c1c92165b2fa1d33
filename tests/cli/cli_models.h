// Models the CLI tests write to files: built with the graph builder, planned in one pool.
#ifndef GRAPHRT_TESTS_CLI_CLI_MODELS_H_
#define GRAPHRT_TESTS_CLI_CLI_MODELS_H_

#include "graphrt/dynamic_memory.h"
#include "graphrt/graphrt.h"
#include "graphrt/tools/model_def.h"

namespace grt::test {

// x (int8 [1, 16], input) -> alias r [4, 4] -> copy -> y (output); a constant w and a noop
// node with every argument kind, so that inspect has one of each thing to show.
tools::ModelDef every_kind_model();

// grt_model_requirements for a serialized model under a strategy (fails the test if the
// runtime refuses it).
grt_requirements requirements_of(const tools::ModelDef& model, grt_strategy strategy);

// grt_page_required_bytes for a serialized model under GRT_STRATEGY_DYNAMIC, first fit.
grt_page_budget page_budget_of(const tools::ModelDef& model, size_t page_size);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_CLI_CLI_MODELS_H_
