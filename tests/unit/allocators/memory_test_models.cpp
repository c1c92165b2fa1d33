#include "memory_test_models.h"

#include <cstring>
#include <map>
#include <string>

#include "graphrt/tools/planner.h"

namespace grt::test {
namespace {

int mix_kernel(TVMValue* args, int*, int num_args, TVMValue*, int*, void*) {
  const int inputs = num_args - 3;
  auto* out = static_cast<DLTensor*>(args[inputs].v_handle);
  const auto salt = static_cast<int8_t>(args[inputs + 1].v_int64);
  const bool use_workspace = args[inputs + 2].v_int64 != 0;
  const size_t out_bytes = grt_tensor_bytes(out);
  int8_t* target = static_cast<int8_t*>(out->data);
  if (use_workspace) target = static_cast<int8_t*>(TVMBackendAllocWorkspace(kDLCPU, 0, out_bytes, kDLInt, 8));
  if (target == nullptr) return -1;
  for (size_t i = 0; i < out_bytes; ++i) {
    int value = salt;
    for (int k = 0; k < inputs; ++k) {
      const auto* in = static_cast<const DLTensor*>(args[k].v_handle);
      value += static_cast<const int8_t*>(in->data)[i % grt_tensor_bytes(in)];
    }
    target[i] = static_cast<int8_t>(value);
  }
  if (use_workspace) {
    std::memcpy(out->data, target, out_bytes);
    if (TVMBackendFreeWorkspace(kDLCPU, 0, target) != 0) return -2;
  }
  return 0;
}

}  // namespace

void add_mix_kernel(grt_registry* registry) { grt_registry_add(registry, "mix", mix_kernel, nullptr); }

uint32_t add_mix(tools::ModelDef* m, const std::vector<uint32_t>& inputs, int64_t bytes, int8_t salt, bool use_workspace,
                 const std::string& name) {
  const uint32_t out = m->add_activation(name, tools::DType::Int8, {1, bytes});
  std::vector<tools::ArgDef> args;
  for (const uint32_t in : inputs) args.push_back(tools::ArgDef::input(in));
  args.push_back(tools::ArgDef::output(out));
  args.push_back(tools::ArgDef::integer(salt));
  args.push_back(tools::ArgDef::integer(use_workspace ? 1 : 0));
  m->add_node("mix", std::move(args), "mix_" + name);
  if (use_workspace) m->nodes.back().workspace_bytes = GRT_STACK_ALLOCATION_BYTES(static_cast<uint64_t>(bytes), 16u);
  return out;
}

tools::ModelDef branching_graph() {
  tools::ModelDef m;
  m.name = "branching";
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 64});
  m.inputs = {x};
  const uint32_t a = add_mix(&m, {x}, 200, 1, false, "a");
  const uint32_t b = add_mix(&m, {x}, 48, 2, false, "b");
  const uint32_t c = add_mix(&m, {a, b}, 120, 3, true, "c");
  const uint32_t d = add_mix(&m, {a}, 30, 4, false, "d");
  const uint32_t e = add_mix(&m, {c, d}, 300, 5, false, "e");
  const uint32_t y = add_mix(&m, {e, b, d}, 64, 6, false, "y");
  m.outputs = {y};
  tools::plan_default(&m);
  return m;
}

tools::ModelDef random_graph(std::mt19937* rng, int nodes, int64_t max_bytes) {
  tools::ModelDef m;
  m.name = "random";
  std::uniform_int_distribution<int64_t> size(1, max_bytes);
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, size(*rng)});
  m.inputs = {x};
  std::vector<uint32_t> tensors = {x};
  std::vector<bool> read = {false};
  for (int n = 0; n + 1 < nodes; ++n) {
    const int inputs = std::uniform_int_distribution<int>(1, 3)(*rng);
    std::vector<uint32_t> chosen;
    for (int k = 0; k < inputs; ++k) {
      // Mostly recent tensors, so lifetimes are short and memory is reused.
      const size_t back = std::min<size_t>(tensors.size(), 1 + std::geometric_distribution<size_t>(0.4)(*rng));
      const size_t index = tensors.size() - back;
      chosen.push_back(tensors[index]);
      read[index] = true;
    }
    const bool workspace = std::uniform_int_distribution<int>(0, 3)(*rng) == 0;
    tensors.push_back(add_mix(&m, chosen, size(*rng), static_cast<int8_t>(n), workspace, "t" + std::to_string(n)));
    read.push_back(false);
  }
  std::vector<uint32_t> unread;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!read[i]) unread.push_back(tensors[i]);
  }
  if (unread.empty()) unread.push_back(tensors.back());
  m.outputs = {add_mix(&m, unread, size(*rng), 99, false, "y")};
  tools::plan_default(&m);
  return m;
}

std::vector<int8_t> evaluate(const tools::ModelDef& m, const std::vector<int8_t>& input) {
  std::map<uint32_t, std::vector<int8_t>> values;
  values[m.inputs[0]] = input;
  for (const tools::NodeDef& node : m.nodes) {
    if (m.kernels[node.kernel] == "copy") {
      values[static_cast<uint32_t>(node.args[1].value)] = values.at(static_cast<uint32_t>(node.args[0].value));
      continue;
    }
    const size_t inputs = node.args.size() - 3;
    const uint32_t out = static_cast<uint32_t>(node.args[inputs].value);
    const auto salt = static_cast<int8_t>(node.args[inputs + 1].value);
    std::vector<int8_t> result(m.tensors[out].bytes());
    for (size_t i = 0; i < result.size(); ++i) {
      int value = salt;
      for (size_t k = 0; k < inputs; ++k) {
        const std::vector<int8_t>& in = values.at(static_cast<uint32_t>(node.args[k].value));
        value += in[i % in.size()];
      }
      result[i] = static_cast<int8_t>(value);
    }
    values[out] = std::move(result);
  }
  return values.at(m.outputs[0]);
}

std::vector<int8_t> sample_input(const tools::ModelDef& m, int seed) {
  std::vector<int8_t> input(m.tensors[m.inputs[0]].bytes());
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<int8_t>(seed * 31 + static_cast<int>(i) * 7);
  return input;
}

AllocatorRun::AllocatorRun(const tools::AlignedBytes& blob, grt_strategy strategy, const grt_allocator* allocator) {
  grt_requirements requirements{};
  init_status = grt_model_requirements(blob.data(), blob.size(), strategy, &requirements, &error);
  if (init_status != GRT_OK) return;
  storage.resize(requirements.bookkeeping_bytes);
  grt_options options{};
  options.registry = &registry.registry;
  options.memory.strategy = strategy;
  options.memory.allocator = allocator;
  init_status = grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
}

std::vector<int8_t> AllocatorRun::run(const std::vector<int8_t>& input) {
  DLTensor* in = grt_input(executor, 0);
  if (in == nullptr || in->data == nullptr || grt_tensor_bytes(in) != input.size()) return {};
  std::memcpy(in->data, input.data(), input.size());
  run_status = grt_run(executor);
  if (run_status != GRT_OK) return {};
  const DLTensor* out = grt_output(executor, 0);
  const auto* p = static_cast<const int8_t*>(out->data);
  return std::vector<int8_t>(p, p + grt_tensor_bytes(out));
}

}  // namespace grt::test
