// Graph JSON through nlohmann-json; every access checks the type first so that ill-typed
// input is refused with a message, not an exception from deep inside the library.
#include "graphrt/tools/tvm/graph.h"

#include <nlohmann/json.hpp>

namespace grt::tools::tvm {
namespace {

using nlohmann::json;

// More than any microcontroller graph; bounds what hostile input can make us allocate.
constexpr uint64_t kMaxCount = 1u << 20;

struct Context {
  std::string* error;
  bool fail(const std::string& message) const {
    *error = "graph: " + message;
    return false;
  }
};

bool as_count(const json& v, uint64_t limit, uint64_t* out) {
  if (v.is_number_unsigned() && v.get<uint64_t>() <= limit) {
    *out = v.get<uint64_t>();
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0 && static_cast<uint64_t>(v.get<int64_t>()) <= limit) {
    *out = static_cast<uint64_t>(v.get<int64_t>());
    return true;
  }
  return false;
}

// TVM writes node attributes as strings ("num_outputs": "1"); numbers are taken too.
bool attr_count(const json& attrs, const char* key, uint64_t fallback, uint64_t* out) {
  const auto it = attrs.find(key);
  if (it == attrs.end()) {
    *out = fallback;
    return true;
  }
  if (it->is_string()) {
    const std::string& text = it->get_ref<const std::string&>();
    if (text.empty() || text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos) return false;
    *out = std::stoull(text);
    return true;
  }
  return as_count(*it, kMaxCount, out);
}

// [node, index, version] (or [node, index]).
bool parse_entry(const json& v, EntryRef* out) {
  uint64_t node = 0, index = 0;
  if (!v.is_array() || v.size() < 2 || v.size() > 3 || !as_count(v[0], kMaxCount, &node) || !as_count(v[1], kMaxCount, &index)) return false;
  out->node = static_cast<uint32_t>(node);
  out->index = static_cast<uint32_t>(index);
  return true;
}

bool parse_node(const Context& c, const json& v, uint32_t id, GraphNode* n) {
  const std::string label = "node " + std::to_string(id);
  if (!v.is_object()) return c.fail(label + " is not an object");
  const auto op = v.find("op");
  const auto name = v.find("name");
  if (op == v.end() || !op->is_string()) return c.fail(label + " has no \"op\" string");
  if (name == v.end() || !name->is_string()) return c.fail(label + " has no \"name\" string");
  n->op = op->get<std::string>();
  n->name = name->get<std::string>();
  const std::string named = label + " '" + n->name + "'";
  if (n->op != "null" && n->op != "tvm_op") return c.fail(named + ": op '" + n->op + "' is neither null nor tvm_op");
  const auto inputs = v.find("inputs");
  if (inputs != v.end()) {
    if (!inputs->is_array() || inputs->size() > kMaxCount) return c.fail(named + ": \"inputs\" is not a list");
    for (const json& e : *inputs) {
      EntryRef ref;
      if (!parse_entry(e, &ref)) return c.fail(named + ": an input is not [node, index, version]");
      n->inputs.push_back(ref);
    }
  }
  if (!n->is_op()) {
    if (!n->inputs.empty()) return c.fail(named + ": a null node has inputs");
    return true;
  }
  const auto attrs = v.find("attrs");
  if (attrs == v.end() || !attrs->is_object()) return c.fail(named + ": tvm_op without \"attrs\"");
  const auto func = attrs->find("func_name");
  if (func == attrs->end() || !func->is_string() || func->get_ref<const std::string&>().empty()) {
    return c.fail(named + ": no \"func_name\"");
  }
  n->func_name = func->get<std::string>();
  uint64_t num_inputs = 0, num_outputs = 0, flatten = 0;
  if (!attr_count(*attrs, "num_inputs", n->inputs.size(), &num_inputs) || !attr_count(*attrs, "num_outputs", 1, &num_outputs) ||
      !attr_count(*attrs, "flatten_data", 0, &flatten) || flatten > 1) {
    return c.fail(named + ": num_inputs, num_outputs or flatten_data is not a small whole number");
  }
  if (num_inputs != n->inputs.size()) {
    return c.fail(named + ": num_inputs is " + std::to_string(num_inputs) + " but it lists " + std::to_string(n->inputs.size()) + " inputs");
  }
  if (num_outputs == 0 || num_outputs > 32) return c.fail(named + ": num_outputs is " + std::to_string(num_outputs));
  n->num_inputs = static_cast<uint32_t>(num_inputs);
  n->num_outputs = static_cast<uint32_t>(num_outputs);
  n->flatten_data = flatten == 1;
  if (n->func_name == "__nop" && (n->num_inputs != 1 || n->num_outputs != 1)) {
    return c.fail(named + ": __nop must have one input and one output");
  }
  return true;
}

// attrs.<key> = ["list_str" | "list_int" | "list_shape", [...]]: the list, checked to have
// one item per entry.
const json* attr_list(const Context& c, const json& attrs, const char* key, const char* kind, size_t entries, bool required) {
  const auto it = attrs.find(key);
  if (it == attrs.end()) {
    if (required) c.fail(std::string("attrs has no \"") + key + "\"");
    return nullptr;
  }
  if (!it->is_array() || it->size() != 2 || !(*it)[0].is_string() || (*it)[0].get_ref<const std::string&>() != kind ||
      !(*it)[1].is_array()) {
    c.fail(std::string("attrs.") + key + " is not [\"" + kind + "\", [...]]");
    return nullptr;
  }
  if ((*it)[1].size() != entries) {
    c.fail(std::string("attrs.") + key + " has " + std::to_string((*it)[1].size()) + " items for " + std::to_string(entries) + " entries");
    return nullptr;
  }
  return &(*it)[1];
}

bool parse_attrs(const Context& c, const json& root, Graph* g) {
  const auto attrs = root.find("attrs");
  if (attrs == root.end() || !attrs->is_object()) return c.fail("no \"attrs\" object");
  const size_t entries = g->node_row_ptr.back();
  const json* dltype = attr_list(c, *attrs, "dltype", "list_str", entries, true);
  if (dltype == nullptr) return false;
  const json* shape = attr_list(c, *attrs, "shape", "list_shape", entries, true);
  if (shape == nullptr) return false;
  const bool has_storage = attrs->find("storage_id") != attrs->end();
  const json* storage = attr_list(c, *attrs, "storage_id", "list_int", entries, false);
  if (has_storage && storage == nullptr) return false;
  for (size_t e = 0; e < entries; ++e) {
    if (!(*dltype)[e].is_string()) return c.fail("attrs.dltype item " + std::to_string(e) + " is not a string");
    g->dltype.push_back((*dltype)[e].get<std::string>());
    const json& dims = (*shape)[e];
    if (!dims.is_array() || dims.size() > 8) return c.fail("attrs.shape item " + std::to_string(e) + " is not a list of at most 8 dimensions");
    std::vector<int64_t> s;
    for (const json& d : dims) {
      uint64_t dim = 0;
      if (!as_count(d, uint64_t{1} << 31, &dim)) return c.fail("attrs.shape item " + std::to_string(e) + " has a dimension that is not a whole number below 2^31");
      s.push_back(static_cast<int64_t>(dim));
    }
    g->shape.push_back(std::move(s));
    if (storage != nullptr) {
      const json& id = (*storage)[e];
      if (!id.is_number_integer()) return c.fail("attrs.storage_id item " + std::to_string(e) + " is not a whole number");
      g->storage_id.push_back(id.get<int64_t>());
    }
  }
  return true;
}

bool check_references(const Context& c, Graph* g) {
  const auto count = static_cast<uint32_t>(g->nodes.size());
  for (uint32_t id = 0; id < count; ++id) {
    const GraphNode& n = g->nodes[id];
    for (const EntryRef& in : n.inputs) {
      const std::string named = "node " + std::to_string(id) + " '" + n.name + "'";
      if (in.node >= count) return c.fail(named + " reads node " + std::to_string(in.node) + ", but the graph has " + std::to_string(count));
      if (in.node >= id) {
        return c.fail(named + " reads node " + std::to_string(in.node) + " '" + g->nodes[in.node].name +
                      "', which is not before it: a cycle, or nodes out of dependency order");
      }
      if (in.index >= g->nodes[in.node].num_outputs) {
        return c.fail(named + " reads output " + std::to_string(in.index) + " of node " + std::to_string(in.node) + " '" +
                      g->nodes[in.node].name + "', which has " + std::to_string(g->nodes[in.node].num_outputs));
      }
    }
  }
  for (const uint32_t a : g->arg_nodes) {
    if (a >= count || g->nodes[a].is_op()) return c.fail("arg_nodes names node " + std::to_string(a) + ", which is not a null node");
  }
  for (const EntryRef& h : g->heads) {
    if (h.node >= count || h.index >= g->nodes[h.node].num_outputs) {
      return c.fail("heads names output " + std::to_string(h.index) + " of node " + std::to_string(h.node) + ", which does not exist");
    }
  }
  return true;
}

}  // namespace

bool parse_graph(std::string_view text, Graph* out, std::string* error) {
  const Context c{error};
  const json root = json::parse(text.begin(), text.end(), nullptr, false);
  if (root.is_discarded()) return c.fail("not valid JSON");
  if (!root.is_object()) return c.fail("the top level is not an object");
  Graph g;
  const auto nodes = root.find("nodes");
  if (nodes == root.end() || !nodes->is_array() || nodes->empty() || nodes->size() > kMaxCount) return c.fail("no \"nodes\" list");
  for (const json& v : *nodes) {
    GraphNode n;
    if (!parse_node(c, v, static_cast<uint32_t>(g.nodes.size()), &n)) return false;
    g.nodes.push_back(std::move(n));
  }
  g.node_row_ptr.push_back(0);
  for (const GraphNode& n : g.nodes) g.node_row_ptr.push_back(g.node_row_ptr.back() + n.num_outputs);
  const auto row_ptr = root.find("node_row_ptr");
  if (row_ptr != root.end()) {
    if (!row_ptr->is_array() || row_ptr->size() != g.node_row_ptr.size()) return c.fail("node_row_ptr does not have one item per node plus one");
    for (size_t i = 0; i < g.node_row_ptr.size(); ++i) {
      uint64_t v = 0;
      if (!as_count((*row_ptr)[i], kMaxCount * 32, &v) || v != g.node_row_ptr[i]) {
        return c.fail("node_row_ptr item " + std::to_string(i) + " disagrees with the nodes' num_outputs");
      }
    }
  }
  const auto args = root.find("arg_nodes");
  if (args == root.end() || !args->is_array()) return c.fail("no \"arg_nodes\" list");
  for (const json& a : *args) {
    uint64_t id = 0;
    if (!as_count(a, kMaxCount, &id)) return c.fail("arg_nodes holds something that is not a node index");
    g.arg_nodes.push_back(static_cast<uint32_t>(id));
  }
  const auto heads = root.find("heads");
  if (heads == root.end() || !heads->is_array() || heads->empty()) return c.fail("no \"heads\" list");
  for (const json& h : *heads) {
    EntryRef ref;
    if (!parse_entry(h, &ref)) return c.fail("a head is not [node, index, version]");
    g.heads.push_back(ref);
  }
  if (!parse_attrs(c, root, &g) || !check_references(c, &g)) return false;
  *out = std::move(g);
  return true;
}

}  // namespace grt::tools::tvm
