// TVM's graph-executor JSON (what relay.build's get_graph_json() writes), read into a
// checked structure: every reference in range, nodes in dependency order, attributes
// consistent with the entry count.
#ifndef GRAPHRT_TOOLS_TVM_GRAPH_H_
#define GRAPHRT_TOOLS_TVM_GRAPH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace grt::tools::tvm {

// One output of one node: an "entry" of the graph.
struct EntryRef {
  uint32_t node = 0;
  uint32_t index = 0;
};

struct GraphNode {
  std::string op;  // "null" (an input or a param) or "tvm_op"
  std::string name;
  std::string func_name;  // tvm_op: the generated function, or "__nop"
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 1;
  bool flatten_data = false;
  std::vector<EntryRef> inputs;
  bool is_op() const { return op != "null"; }
};

struct Graph {
  std::vector<GraphNode> nodes;
  std::vector<uint32_t> arg_nodes;
  std::vector<EntryRef> heads;
  std::vector<uint32_t> node_row_ptr;  // entry id of each node's first output; one more at the end
  // Per entry:
  std::vector<std::string> dltype;
  std::vector<std::vector<int64_t>> shape;
  std::vector<int64_t> storage_id;  // empty when the graph has none (a hint only)

  uint32_t entry_id(EntryRef e) const { return node_row_ptr[e.node] + e.index; }
  size_t entry_count() const { return dltype.size(); }
};

// Refuses malformed or ill-typed JSON, references to missing nodes or entries, a node
// reading an entry of itself or of a later node (a cycle), and attribute lists whose length
// is not the entry count, with a message naming the node.
bool parse_graph(std::string_view json, Graph* out, std::string* error);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_GRAPH_H_
