#include "model_session.h"

#include <cstring>
#include <optional>

#include "files.h"
#include "graphrt/platform.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "model_file.h"
#include "resource_limits.h"

namespace grt::python {
namespace {

bool is_tflite(const tools::AlignedBytes& bytes) {
  return bytes.size() >= 8 && std::memcmp(bytes.data() + 4, "TFL3", 4) == 0;
}

struct NodeTicks {
  std::vector<uint64_t> ticks;
  std::vector<const char*> kernels;
};

void record_node(void* user, uint32_t node, const char* kernel_name, uint64_t ticks) {
  auto* times = static_cast<NodeTicks*>(user);
  if (node >= times->ticks.size()) return;
  times->ticks[node] += ticks;
  times->kernels[node] = kernel_name;
}

}  // namespace

ModelSession::ModelSession(tools::AlignedBytes blob, tools::ModelDef model) : blob_(std::move(blob)), model_(std::move(model)) {
  std::string error;
  if (!executor_.init(blob_, cli::HostExecutor::Options{}, &error)) throw RuntimeFailure(error);
}

std::unique_ptr<ModelSession> ModelSession::import_tflite(const std::string& path) {
  tools::AlignedBytes bytes;
  std::string error;
  if (!cli::read_file(path, cli::Limits{}.max_input_bytes, &bytes, &error)) throw RuntimeFailure(error);
  tools::ModelDef model;
  const tools::ImportResult imported = tools::import_tflite(bytes.data(), bytes.size(), &model);
  if (!imported.ok) throw RuntimeFailure(path + ": " + imported.error);
  if (!tools::plan_model(&model, tools::PlanOptions{}, nullptr, &error)) throw RuntimeFailure(path + ": " + error);
  tools::AlignedBytes blob(tools::serialize(model));
  return std::unique_ptr<ModelSession>(new ModelSession(std::move(blob), std::move(model)));
}

std::unique_ptr<ModelSession> ModelSession::load(const std::string& path) {
  tools::AlignedBytes bytes;
  std::string error;
  if (!cli::read_file(path, cli::Limits{}.max_input_bytes, &bytes, &error)) throw RuntimeFailure(error);
  if (is_tflite(bytes)) return import_tflite(path);
  cli::ModelFile file;
  if (!cli::load_model_file(path, cli::Limits{}, &file, &error)) throw RuntimeFailure(error);
  return std::unique_ptr<ModelSession>(new ModelSession(std::move(file.blob), std::move(file.model)));
}

void ModelSession::write_input(uint32_t index, const void* data, size_t bytes) {
  std::memcpy(grt_input(executor_.get(), index)->data, data, bytes);
}

const void* ModelSession::output_data(uint32_t index) const { return grt_output(executor_.get(), index)->data; }

bool ModelSession::run(std::string* error) {
  if (grt_run(executor_.get()) == GRT_OK) return true;
  *error = grt_last_error(executor_.get())->message;
  return false;
}

bool ModelSession::memory(const std::string& strategy, MemoryFigures* out, std::string* error) const {
  const std::optional<cli::Strategy> parsed = cli::parse_strategy(strategy);
  if (!parsed || *parsed == cli::Strategy::kHeap) {
    *error = "strategy '" + strategy + "' is not one of static, page, stack";
    return false;
  }
  // An executor of its own: what init needs under that strategy, exactly.
  cli::HostExecutor probe;
  cli::HostExecutor::Options options;
  options.strategy = *parsed;
  if (!probe.init(blob_, options, error)) return false;
  const cli::MemoryUse use = probe.memory_use();
  out->bookkeeping_bytes = use.bookkeeping_bytes;
  out->pool_bytes = use.pool_bytes;
  out->allocator_bytes = use.allocator_buffer_bytes;
  return true;
}

bool ModelSession::profile(int runs, std::vector<NodeTime>* out, std::string* error) {
  if (runs < 1) {
    *error = "runs must be at least 1, not " + std::to_string(runs);
    return false;
  }
  NodeTicks times;
  times.ticks.assign(model_.nodes.size(), 0);
  times.kernels.assign(model_.nodes.size(), nullptr);
  grt_hooks hooks{};
  hooks.node_done = record_node;
  hooks.user = &times;
  cli::HostExecutor timed;
  cli::HostExecutor::Options options;
  options.hooks = &hooks;
  if (!timed.init(blob_, options, error)) return false;
  // The same inputs as the model's last run (or as set).
  for (uint32_t i = 0; i < model_.inputs.size(); ++i) {
    const DLTensor* from = grt_input(executor_.get(), i);
    std::memcpy(grt_input(timed.get(), i)->data, from->data, grt_tensor_bytes(from));
  }
  for (int r = 0; r < runs; ++r) {
    if (grt_run(timed.get()) != GRT_OK) {
      *error = grt_last_error(timed.get())->message;
      return false;
    }
  }
  const double seconds_per_tick = 1.0 / static_cast<double>(grt_platform_ticks_per_second());
  out->clear();
  for (uint32_t n = 0; n < model_.nodes.size(); ++n) {
    NodeTime t;
    t.node = n;
    t.name = model_.nodes[n].name;
    t.kernel = times.kernels[n] != nullptr ? times.kernels[n] : model_.kernels[model_.nodes[n].kernel];
    t.seconds = static_cast<double>(times.ticks[n]) * seconds_per_tick / runs;
    out->push_back(std::move(t));
  }
  return true;
}

}  // namespace grt::python
