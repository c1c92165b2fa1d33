// graphrt inspect M.grt [--json]: what a blob holds and how much memory it needs.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../format.h"
#include "../json.h"
#include "../resource_limits.h"
#include "../model_file.h"
#include "../report.h"
#include "../table.h"
#include "graphrt/graphrt.h"
#include "graphrt/target_requirements.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "inspect",
    "M.grt [--json]",
    "Shows a blob's tensors, nodes, kernels, pools and the memory each strategy needs.",
    "Tensors show where their bytes live: a pool slot (pool @ offset), constant bytes, or an\n"
    "alias of another tensor. Memory: the executor's bookkeeping, the pools, and the\n"
    "allocator bytes for the dynamic and stack strategies, from grt_model_requirements\n"
    "(bookkeeping for the default lean arguments; 'prepared': with every node's arguments\n"
    "built at init, for the fastest dispatch; 'arm32': the same for a 32-bit Arm build such\n"
    "as Cortex-M firmware, which can reserve it at build time);\n"
    "the lower bound is the most bytes live during any one node (no plan can be smaller).",
    {"M.grt"},
    {{"json", 0, "", false, "print JSON instead of text"}, max_input_option()},
};

struct StrategyBudget {
  const char* name;
  grt_strategy strategy;
  grt_status status = GRT_OK;
  grt_error error{};
  grt_requirements requirements{};
  size_t prepared_bookkeeping_bytes = 0;  // under GRT_ARGUMENTS_PREPARED
  size_t arm32_bookkeeping_bytes = 0;     // the same two on a 32-bit Arm build
  size_t arm32_prepared_bookkeeping_bytes = 0;
};

struct Inspection {
  const tools::ModelDef* model = nullptr;
  size_t blob_bytes = 0;
  std::vector<StrategyBudget> budgets;
  bool checked = false;  // the runtime accepted the blob: liveness is meaningful
  uint64_t lower_bound = 0;
};

const char* kind_name(tools::TensorKind kind) {
  switch (kind) {
    case tools::TensorKind::Constant: return "constant";
    case tools::TensorKind::Activation: return "activation";
    case tools::TensorKind::Alias: return "alias";
    case tools::TensorKind::State: return "state";
  }
  return "unknown";
}

const char* arg_kind_name(tools::ArgKind kind) {
  switch (kind) {
    case tools::ArgKind::Input: return "input";
    case tools::ArgKind::Output: return "output";
    case tools::ArgKind::Int: return "int";
    case tools::ArgKind::Float: return "float";
    case tools::ArgKind::IntArray: return "int_array";
    case tools::ArgKind::None: return "none";
    case tools::ArgKind::Subgraph: return "subgraph";
  }
  return "unknown";
}

bool refers_to_tensor(tools::ArgKind kind) {
  return kind == tools::ArgKind::Input || kind == tools::ArgKind::Output || kind == tools::ArgKind::IntArray;
}

bool contains(const std::vector<uint32_t>& list, uint32_t value) {
  for (const uint32_t v : list) {
    if (v == value) return true;
  }
  return false;
}

// "input", "output", "input, output" or "".
std::string io_role(const tools::ModelDef& model, uint32_t tensor) {
  std::string role = contains(model.inputs, tensor) ? "input" : "";
  if (contains(model.outputs, tensor)) role += role.empty() ? "output" : ", output";
  return role;
}

std::string pool_name(const tools::ModelDef& model, uint32_t pool) {
  return pool < model.pools.size() ? model.pools[pool].name : "#" + std::to_string(pool);
}

std::string kernel_name(const tools::ModelDef& model, uint32_t kernel) {
  return kernel < model.kernels.size() ? model.kernels[kernel] : "#" + std::to_string(kernel) + "?";
}

// Where a tensor's bytes live, for the text table.
std::string placement(const tools::ModelDef& model, const tools::TensorDef& t) {
  switch (t.kind) {
    case tools::TensorKind::Constant: {
      const uint64_t size = t.buffer < model.buffers.size() ? model.buffers[t.buffer].size() : 0;
      return "buffer " + std::to_string(t.buffer) + ", " + std::to_string(size) + " constant bytes";
    }
    case tools::TensorKind::Activation:
      return "pool '" + pool_name(model, t.pool) + "' @ " + std::to_string(t.offset);
    case tools::TensorKind::Alias:
      return "alias of tensor " + std::to_string(t.alias_of) + " + " + std::to_string(t.offset);
    case tools::TensorKind::State:
      return "state in pool '" + pool_name(model, t.pool) + "' @ " + std::to_string(t.offset) + ", kept across runs";
  }
  return "";
}

std::string format_arg(const tools::ArgDef& arg) {
  switch (arg.kind) {
    case tools::ArgKind::Input: return "in:" + std::to_string(arg.value);
    case tools::ArgKind::Output: return "out:" + std::to_string(arg.value);
    case tools::ArgKind::IntArray: return "ints:" + std::to_string(arg.value);
    case tools::ArgKind::Int: return std::to_string(arg.value);
    case tools::ArgKind::Float: {
      char text[32];
      std::snprintf(text, sizeof text, "%g", arg.as_real());
      return text;
    }
    case tools::ArgKind::None: return "none";
    case tools::ArgKind::Subgraph: return "subgraph:" + std::to_string(arg.value);
  }
  return "?";
}

// "first..last" of `count` indices from `first`, for the subgraph table.
std::string index_range(uint32_t first, uint32_t count) {
  if (count == 0) return "none";
  return std::to_string(first) + ".." + std::to_string(first + count - 1);
}

std::string index_list(const std::vector<uint32_t>& indices) {
  std::string text;
  for (const uint32_t i : indices) text += (text.empty() ? "" : " ") + std::to_string(i);
  return text.empty() ? "none" : text;
}

uint64_t total_pool_bytes(const grt_requirements& r) {
  uint64_t total = 0;
  for (uint32_t p = 0; p < r.pool_count; ++p) total += r.pool_bytes[p];
  return total;
}

void print_text(const Inspection& x) {
  const tools::ModelDef& m = *x.model;
  std::printf("model '%s' (schema %u.%u), %s\n", m.name.c_str(), m.version_major, m.version_minor, format_bytes(x.blob_bytes).c_str());
  if (!m.producer.empty()) std::printf("producer: %s\n", m.producer.c_str());

  std::printf("\ntensors (%zu):\n", m.tensors.size());
  Table tensors({{"#", true}, {"dtype"}, {"shape"}, {"bytes", true}, {"kind"}, {"role"}, {"where"}, {"name"}});
  for (uint32_t i = 0; i < m.tensors.size(); ++i) {
    const tools::TensorDef& t = m.tensors[i];
    tensors.add_row({std::to_string(i), tools::dtype_name(t.dtype), format_shape(t.shape), std::to_string(t.bytes()), kind_name(t.kind),
                     io_role(m, i), placement(m, t), t.name});
  }
  std::fputs(tensors.text().c_str(), stdout);

  std::printf("\nnodes (%zu):\n", m.nodes.size());
  Table nodes({{"#", true}, {"name"}, {"kernel"}, {"workspace"}, {"args"}});
  for (uint32_t i = 0; i < m.nodes.size(); ++i) {
    const tools::NodeDef& n = m.nodes[i];
    std::string args;
    for (const tools::ArgDef& a : n.args) args += (args.empty() ? "" : " ") + format_arg(a);
    std::string workspace = std::to_string(n.workspace_bytes) + " B";
    if (n.workspace_bytes != 0) workspace += " @ '" + pool_name(m, n.workspace_pool) + "' " + std::to_string(n.workspace_offset);
    nodes.add_row({std::to_string(i), n.name, kernel_name(m, n.kernel), workspace, args});
  }
  std::fputs(nodes.text().c_str(), stdout);

  if (!m.subgraphs.empty()) {
    // Graphs that IF, WHILE and CALL_ONCE nodes invoke (node args "subgraph:K"); the main
    // graph is the nodes and tensors before the first of them.
    std::printf("\nsubgraphs (%zu):\n", m.subgraphs.size());
    Table subgraphs({{"#", true}, {"name"}, {"nodes"}, {"tensors"}, {"inputs"}, {"outputs"}});
    for (uint32_t k = 0; k < m.subgraphs.size(); ++k) {
      const tools::SubgraphDef& g = m.subgraphs[k];
      subgraphs.add_row({std::to_string(k), g.name, index_range(g.first_node, g.node_count), index_range(g.first_tensor, g.tensor_count),
                         index_list(g.inputs), index_list(g.outputs)});
    }
    std::fputs(subgraphs.text().c_str(), stdout);
  }

  std::printf("\nkernels (%zu):", m.kernels.size());
  for (const std::string& k : m.kernels) std::printf(" %s", k.c_str());
  std::printf("\n\npools (%zu):\n", m.pools.size());
  for (uint32_t p = 0; p < m.pools.size(); ++p) {
    const tools::PoolDef& pool = m.pools[p];
    std::printf("  %u  '%s'  %s, aligned to %u%s%s\n", p, pool.name.c_str(), format_bytes(pool.size).c_str(), pool.alignment,
                pool.placement.empty() ? "" : ", placement ", pool.placement.c_str());
  }
  // `graphrt import --inputs-outside`: the caller's input buffer is that pool's buffer.
  uint64_t besides_inputs = 0;
  const tools::PoolDef* inputs_pool = nullptr;
  for (const tools::PoolDef& pool : m.pools) {
    if (pool.name == tools::kInputsPool && pool.placement == "caller") {
      inputs_pool = &pool;
    } else {
      besides_inputs += pool.size;
    }
  }
  if (inputs_pool != nullptr) {
    std::printf("  inputs outside: pool '%s' holds only the model inputs (%s); hand the input buffer as its buffer. The other pools: %s\n",
                inputs_pool->name.c_str(), format_bytes(inputs_pool->size).c_str(), format_bytes(besides_inputs).c_str());
  }

  std::printf("\nmemory (bytes to provide before grt_init):\n");
  Table memory({{"strategy"}, {"bookkeeping", true}, {"prepared", true}, {"arm32", true}, {"arm32 prepared", true}, {"pools", true},
                {"allocator", true}});
  std::string refusals;
  for (const StrategyBudget& b : x.budgets) {
    if (b.status != GRT_OK) {
      refusals += std::string("  ") + b.name + " refused: " + b.error.message + "\n";
      continue;
    }
    const bool is_static = b.strategy == GRT_STRATEGY_STATIC;
    memory.add_row({b.name, std::to_string(b.requirements.bookkeeping_bytes), std::to_string(b.prepared_bookkeeping_bytes),
                    std::to_string(b.arm32_bookkeeping_bytes), std::to_string(b.arm32_prepared_bookkeeping_bytes),
                    std::to_string(is_static ? total_pool_bytes(b.requirements) : 0),
                    std::to_string(is_static ? size_t{0} : b.requirements.allocator_bytes)});
  }
  std::fputs(memory.text().c_str(), stdout);
  std::fputs(refusals.c_str(), stdout);
  if (x.checked) std::printf("  liveness lower bound: %s\n", format_bytes(x.lower_bound).c_str());
}

Json budget_json(const StrategyBudget& b) {
  if (b.status != GRT_OK) return {{"error", b.error.message}};
  const grt_requirements& r = b.requirements;
  Json j = {{"bookkeeping_bytes", r.bookkeeping_bytes},
            {"prepared_bookkeeping_bytes", b.prepared_bookkeeping_bytes},
            {"arm32_bookkeeping_bytes", b.arm32_bookkeeping_bytes},
            {"arm32_prepared_bookkeeping_bytes", b.arm32_prepared_bookkeeping_bytes}};
  if (b.strategy == GRT_STRATEGY_STATIC) {
    j["pool_bytes"] = std::vector<uint64_t>(r.pool_bytes, r.pool_bytes + r.pool_count);
  } else {
    j["allocator_bytes"] = r.allocator_bytes;
  }
  return j;
}

Json tensor_json(const tools::ModelDef& m, uint32_t i) {
  const tools::TensorDef& t = m.tensors[i];
  Json j = {{"index", i}, {"name", t.name}, {"dtype", tools::dtype_name(t.dtype)}, {"shape", t.shape},
            {"bytes", t.bytes()}, {"kind", kind_name(t.kind)}, {"input", contains(m.inputs, i)},
            {"output", contains(m.outputs, i)}};
  switch (t.kind) {
    case tools::TensorKind::Constant:
      j["buffer"] = t.buffer;
      j["constant_bytes"] = t.buffer < m.buffers.size() ? m.buffers[t.buffer].size() : 0;
      break;
    case tools::TensorKind::Activation:
      j["pool"] = pool_name(m, t.pool);
      j["pool_index"] = t.pool;
      j["offset"] = t.offset;
      break;
    case tools::TensorKind::Alias:
      j["alias_of"] = t.alias_of;
      j["offset"] = t.offset;
      break;
    case tools::TensorKind::State:
      j["pool"] = pool_name(m, t.pool);
      j["pool_index"] = t.pool;
      j["offset"] = t.offset;
      j["initial_buffer"] = t.buffer;
      break;
  }
  if (t.quantization) {
    const auto& q = *t.quantization;
    j["quantization"] = {{"scale", q.scale}, {"zero_point", q.zero_point}, {"axis", q.axis}};
  }
  return j;
}

Json node_json(const tools::ModelDef& m, uint32_t i) {
  const tools::NodeDef& n = m.nodes[i];
  Json args = Json::array();
  for (const tools::ArgDef& a : n.args) {
    Json arg = {{"kind", arg_kind_name(a.kind)}};
    if (refers_to_tensor(a.kind)) arg["tensor"] = a.value;
    if (a.kind == tools::ArgKind::Int) arg["value"] = a.value;
    if (a.kind == tools::ArgKind::Float) arg["value"] = a.as_real();
    args.push_back(std::move(arg));
  }
  Json j = {{"index", i}, {"name", n.name}, {"kernel", kernel_name(m, n.kernel)}, {"args", std::move(args)},
            {"workspace_bytes", n.workspace_bytes}};
  if (n.workspace_bytes != 0) {
    j["workspace_pool"] = pool_name(m, n.workspace_pool);
    j["workspace_offset"] = n.workspace_offset;
  }
  return j;
}

void print_json(const Inspection& x) {
  const tools::ModelDef& m = *x.model;
  Json j = {{"name", m.name},
            {"producer", m.producer},
            {"schema_version", std::to_string(m.version_major) + "." + std::to_string(m.version_minor)},
            {"blob_bytes", x.blob_bytes}};
  Json& tensors = j["tensors"] = Json::array();
  for (uint32_t i = 0; i < m.tensors.size(); ++i) tensors.push_back(tensor_json(m, i));
  Json& nodes = j["nodes"] = Json::array();
  for (uint32_t i = 0; i < m.nodes.size(); ++i) nodes.push_back(node_json(m, i));
  Json& subgraphs = j["subgraphs"] = Json::array();
  for (const tools::SubgraphDef& g : m.subgraphs) {
    subgraphs.push_back({{"name", g.name}, {"first_node", g.first_node}, {"node_count", g.node_count}, {"first_tensor", g.first_tensor},
                         {"tensor_count", g.tensor_count}, {"inputs", g.inputs}, {"outputs", g.outputs}});
  }
  j["kernels"] = m.kernels;
  j["inputs"] = m.inputs;
  j["outputs"] = m.outputs;
  // `graphrt import --inputs-outside`: a pool of the inputs only, the caller's input buffer.
  j["inputs_outside"] = std::any_of(m.pools.begin(), m.pools.end(), [](const tools::PoolDef& p) {
    return p.name == tools::kInputsPool && p.placement == "caller";
  });
  Json& pools = j["pools"] = Json::array();
  for (const tools::PoolDef& p : m.pools) {
    pools.push_back({{"name", p.name}, {"size_bytes", p.size}, {"alignment", p.alignment}, {"placement", p.placement}});
  }
  const StrategyBudget& static_budget = x.budgets.front();
  j["runtime_bytes"] = static_budget.status == GRT_OK ? Json(static_budget.requirements.bookkeeping_bytes) : Json();
  j["lower_bound_bytes"] = x.checked ? Json(x.lower_bound) : Json();
  Json& memory = j["memory"] = Json::object();
  for (const StrategyBudget& b : x.budgets) memory[b.name] = budget_json(b);
  std::printf("%s\n", json_text(j).c_str());
}

}  // namespace
}  // namespace grt::cli

int run_inspect_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const std::string& path = parsed->positionals()[0];
  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;

  ModelFile file;
  std::string error;
  if (!load_model_file(path, limits, &file, &error)) return fail(kSpec.name, error);

  Inspection x;
  x.model = &file.model;
  x.blob_bytes = file.blob.size();
  x.budgets = {{"static", GRT_STRATEGY_STATIC}, {"dynamic", GRT_STRATEGY_DYNAMIC}, {"stack", GRT_STRATEGY_STACK}};
  for (StrategyBudget& b : x.budgets) {
    b.status = grt_model_requirements(file.blob.data(), file.blob.size(), b.strategy, &b.requirements, &b.error);
    if (b.status != GRT_OK) continue;
    // The blob loaded once; the other figures differ only in layout.
    auto bookkeeping = [&](grt_arguments arguments, grt_abi abi) {
      grt_options options{};
      options.memory.strategy = b.strategy;
      options.arguments = arguments;
      grt_requirements r{};
      grt_error unused;
      return grt_model_requirements_abi(file.blob.data(), file.blob.size(), &options, abi, &r, &unused) == GRT_OK
                 ? r.bookkeeping_bytes
                 : size_t{0};
    };
    b.prepared_bookkeeping_bytes = bookkeeping(GRT_ARGUMENTS_PREPARED, GRT_ABI_NATIVE);
    b.arm32_bookkeeping_bytes = bookkeeping(GRT_ARGUMENTS_LEAN, GRT_ABI_ARM32);
    b.arm32_prepared_bookkeeping_bytes = bookkeeping(GRT_ARGUMENTS_PREPARED, GRT_ABI_ARM32);
  }
  // Liveness walks indices the runtime has range-checked; skip it for a refused blob.
  x.checked = x.budgets.front().status == GRT_OK;
  if (x.checked) x.lower_bound = grt::tools::liveness_lower_bound(grt::tools::planning_blocks(file.model));

  parsed->has("json") ? print_json(x) : print_text(x);
  // A blob the runtime refuses is still shown (that is when one wants to look inside), but
  // the exit status says it would not load.
  if (!x.checked) return fail(kSpec.name, path + ": " + x.budgets.front().error.message);
  return kExitOk;
}
