// The dispatch benchmark's model: N nodes calling the built-in no-op kernel with two tensor
// arguments each, so what is measured is the interpreter, not a kernel.
#ifndef GRAPHRT_BENCH_DISPATCH_MODEL_H_
#define GRAPHRT_BENCH_DISPATCH_MODEL_H_

#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace grt::bench {

inline tools::ModelDef dispatch_model(int nodes) {
  tools::ModelDef m;
  m.name = "dispatch";
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 16});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {1, 16});
  m.inputs = {x};
  m.outputs = {y};
  for (int i = 0; i < nodes; ++i) m.add_node("noop", {tools::ArgDef::input(x), tools::ArgDef::output(y)});
  tools::plan_default(&m);
  return m;
}

}  // namespace grt::bench

#endif  // GRAPHRT_BENCH_DISPATCH_MODEL_H_
