#include "test_models.h"

#include "graphrt/tools/planner.h"

namespace grt::test {

tools::ModelDef add_constant_f32(double low, double high) {
  tools::ModelDef model;
  model.producer = "graphrt tests";
  const uint32_t x = model.add_activation("x", tools::DType::Float32, {1, 4});
  const uint32_t y = model.add_activation("y", tools::DType::Float32, {1, 4});
  model.inputs.push_back(x);
  model.outputs.push_back(y);
  const uint32_t b = model.add_constant_values<float>("b", tools::DType::Float32, {1, 4}, {1.0f, 2.0f, 3.0f, 4.0f});
  model.add_node("add_f32", {tools::ArgDef::input(x), tools::ArgDef::input(b), tools::ArgDef::output(y), tools::ArgDef::real(low),
                             tools::ArgDef::real(high)});
  tools::plan_default(&model);
  return model;
}

tools::ModelDef if_else_copy(int64_t n) {
  tools::ModelDef m;
  m.name = "if_else_copy";
  m.producer = "graphrt tests";
  const uint32_t cond = m.add_activation("cond", tools::DType::Bool, {1});
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, n});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {1, n});
  m.inputs = {cond, x};
  m.outputs = {y};
  m.add_node("if_else", {tools::ArgDef::subgraph(0), tools::ArgDef::subgraph(1), tools::ArgDef::input(cond), tools::ArgDef::input(x),
                         tools::ArgDef::output(y)});
  for (const int copies : {1, 2}) {
    m.begin_subgraph(copies == 1 ? "then" : "else");
    uint32_t previous = m.add_activation("in", tools::DType::Int8, {1, n});
    m.subgraphs.back().inputs = {previous};
    for (int i = 0; i < copies; ++i) {
      const uint32_t next = m.add_activation("t" + std::to_string(i), tools::DType::Int8, {1, n});
      m.add_node("copy", {tools::ArgDef::input(previous), tools::ArgDef::output(next)});
      previous = next;
    }
    m.subgraphs.back().outputs = {previous};
  }
  m.end_subgraph();
  tools::plan_default(&m);
  return m;
}

tools::ModelDef remembers_last_input() {
  tools::ModelDef m;
  m.name = "remembers";
  m.producer = "graphrt tests";
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 4});
  const uint32_t last = m.add_state("last", tools::DType::Int8, {1, 4}, {1, 2, 3, 4});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {1, 4});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("copy", {tools::ArgDef::input(last), tools::ArgDef::output(y)});
  m.add_node("copy", {tools::ArgDef::input(x), tools::ArgDef::output(last)});
  tools::plan_default(&m);
  return m;
}

tools::ModelDef copy_chain(int copies, int64_t n) {
  tools::ModelDef m;
  m.name = "copy_chain";
  m.producer = "graphrt tests";
  uint32_t previous = m.add_activation("x", tools::DType::Int8, {1, n});
  m.inputs.push_back(previous);
  for (int i = 0; i < copies; ++i) {
    const bool last = i + 1 == copies;
    const uint32_t next = m.add_activation(last ? "y" : "t" + std::to_string(i + 1), tools::DType::Int8, {1, n});
    m.add_node("copy", {tools::ArgDef::input(previous), tools::ArgDef::output(next)}, "copy" + std::to_string(i));
    previous = next;
  }
  m.outputs.push_back(previous);
  tools::plan_default(&m);
  return m;
}

tools::AlignedBytes to_blob(const tools::ModelDef& model) { return tools::AlignedBytes(tools::serialize(model)); }

Registry::Registry() { grt_registry_init(&registry, storage, 8, grt_builtin_kernels()); }

StaticRun::StaticRun(const tools::AlignedBytes& blob, const grt_registry* registry, const grt_hooks* hooks) {
  status = grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &requirements, &error);
  if (status != GRT_OK) return;
  storage.resize(requirements.bookkeeping_bytes);
  for (uint32_t p = 0; p < requirements.pool_count; ++p) {
    pools.emplace_back(requirements.pool_bytes[p]);
    pool_pointers.push_back(pools.back().data());
    pool_sizes.push_back(requirements.pool_bytes[p]);
  }
  grt_options options{};
  options.registry = registry != nullptr ? registry : &own_registry.registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pool_pointers.data();
  options.memory.pool_sizes = pool_sizes.data();
  options.memory.pool_count = requirements.pool_count;
  options.hooks = hooks;
  status = grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
}

grt_status init_status(const tools::AlignedBytes& blob, grt_error* error) {
  StaticRun run(blob);
  *error = run.error;
  return run.status;
}

}  // namespace grt::test
