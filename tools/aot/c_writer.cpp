// Prints a recorded graph (aot_graph.h) as C99: constant buffers, shapes, DLTensors and
// each node's TVMValue/type-code arrays as const data (flash), and a run function that
// calls every node's kernel on them in order. The pools are the firmware's arrays, named
// by the header, so every descriptor is a link-time constant and running costs no RAM
// besides the pools and the run function's stack.
#include <mbedtls/sha256.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "aot_graph.h"
#include "graphrt/packed_func.h"
#include "graphrt/tools/aot.h"

namespace grt::tools::aot {
namespace {

std::string upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

std::string sha256_hex(const uint8_t* data, size_t size) {
  unsigned char digest[32];
  mbedtls_sha256_ret(data, size, digest, 0);  // mbedTLS 2, as the host tools use
  std::string hex;
  char two[3];
  for (const unsigned char byte : digest) {
    std::snprintf(two, sizeof two, "%02x", byte);
    hex += two;
  }
  return hex;
}

std::string int64_literal(int64_t v) {
  if (v == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
  return "INT64_C(" + std::to_string(v) + ")";
}

uint64_t tensor_bytes(const TensorArg& t) {
  uint64_t elements = 1;
  for (const int64_t d : t.shape) elements *= static_cast<uint64_t>(d);
  return elements * ((static_cast<uint64_t>(t.dtype.bits) * t.dtype.lanes + 7) / 8);
}

class Writer {
 public:
  Writer(const Graph& graph, const AotOptions& options, std::string sha256)
      : g_(graph), o_(options), s_(options.symbol), m_(upper(options.symbol)), sha256_(std::move(sha256)) {}

  std::string header() const {
    std::string h = banner();
    const std::string guard = m_ + "_AOT_H_";
    h += "#ifndef " + guard + "\n#define " + guard + "\n\n#include <stddef.h>\n#include <stdint.h>\n\n#include \"graphrt/aot.h\"\n\n";
    h += "#define " + m_ + "_SHA256 \"" + sha256_ + "\"\n";
    h += "#define " + m_ + "_GRAPHRT_VERSION \"" + o_.version + "\"\n";
    h += "#define " + m_ + "_NODE_COUNT " + std::to_string(g_.nodes.size()) + "u\n";
    h += "#define " + m_ + "_STATE_COUNT " + std::to_string(g_.states.size()) + "u\n";
    h += "#define " + m_ + "_POOL_COUNT " + std::to_string(g_.pools.size()) + "u\n";
    for (size_t p = 0; p < g_.pools.size(); ++p) {
      // At least one byte: a C array cannot be empty.
      h += "#define " + pool_macro(p) + "_BYTES " + std::to_string(std::max<uint64_t>(g_.pools[p].bytes, 1)) + "u\n";
      h += "#define " + pool_macro(p) + "_ALIGN " + std::to_string(g_.pools[p].alignment) + "u\n";
    }
    io_macros(&h, "INPUT", g_.inputs);
    io_macros(&h, "OUTPUT", g_.outputs);
    h += "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
    if (!g_.pools.empty()) {
      h += "/* The pools: the firmware defines them, in whichever RAM it chooses, e.g.\n";
      h += " *   uint8_t " + pool_name(0) + "[" + pool_macro(0) + "_BYTES] __attribute__((aligned(" + pool_macro(0) + "_ALIGN)));\n";
      h += " * Inputs, outputs and every activation live there; one run at a time uses them. */\n";
      for (size_t p = 0; p < g_.pools.size(); ++p) h += "extern uint8_t " + pool_name(p) + "[];\n";
      h += "\n";
    }
    h += "/* Sets the model's state (" + std::to_string(g_.states.size()) + " State tensors: LSTM/SVDF memory, variables) to its\n";
    h += " * initial bytes, as grt_init and grt_reset_state do: call it before the first run and\n";
    h += " * whenever the state should start over. Runs keep it otherwise. */\n";
    h += "void " + s_ + "_reset_state(void);\n\n";
    h += "/* Runs every node once: 0, or 1 + the index of the node whose kernel failed (then\n";
    h += " * *message, when message is not NULL, is what the kernel said, or NULL). */\n";
    h += "int " + s_ + "_run(const char** message);\n\n";
    h += "#ifdef GRT_AOT_HOOKS\n";
    h += "/* The same with per-node hooks (compile the generated C with GRT_AOT_HOOKS defined):\n";
    h += " * -(1 + node) when hooks->before_node cancelled the run before that node. */\n";
    h += "int " + s_ + "_run_hooked(const grt_aot_hooks* hooks, const char** message);\n";
    h += "#endif\n\n";
    h += "/* The model's inputs and outputs, in the pools (write inputs, read outputs in place):\n";
    h += " * data, dtype and shape. NULL past the last. */\n";
    h += "const DLTensor* " + s_ + "_input(uint32_t index);\n";
    h += "const DLTensor* " + s_ + "_output(uint32_t index);\n";
    h += "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " + guard + " */\n";
    return h;
  }

  std::string source() const {
    std::string c = banner();
    c += "/* Kernel argument checks (grt_check_<kernel>) are not run here: graphrt aot loaded the\n";
    c += " * model with the built-in kernels and ran every check on exactly these arguments,\n";
    c += " * which are const below, so on the device they could only say what they said then. */\n";
    if (o_.header_name.empty()) {
      c += header();
    } else {
      c += "#include \"" + o_.header_name + "\"\n";
    }
    if (!g_.states.empty()) c += "#include <string.h> /* the state's reset */\n";
    if (o_.define_pools) {
      c += "\n";
      for (size_t p = 0; p < g_.pools.size(); ++p) {
        c += "uint8_t " + pool_name(p) + "[" + pool_macro(p) + "_BYTES] __attribute__((aligned(" + pool_macro(p) + "_ALIGN)));\n";
      }
    }
    c += "\n#define " + m_ + "_CONST __attribute__((section(\"" + section() + "\"), aligned(16)))\n\n";
    kernel_declarations(&c);
    constants(&c);
    shapes_and_tensors(&c);
    arguments(&c);
    run_function(&c);
    reset_function(&c);
    accessors(&c);
    return c;
  }

 private:
  std::string banner() const {
    return "/* Generated by graphrt aot " + o_.version + " from " + o_.source_label + " (" + std::to_string(g_.nodes.size()) +
           " nodes). Do not edit.\n * Model SHA-256: " + sha256_ + " */\n";
  }
  std::string section() const { return o_.section.empty() ? ".rodata.graphrt_aot." + s_ : o_.section; }
  std::string pool_name(size_t p) const { return s_ + "_pool" + std::to_string(p); }
  std::string pool_macro(size_t p) const { return m_ + "_POOL" + std::to_string(p); }
  std::string tensor_name(uint32_t t) const { return s_ + "_t" + std::to_string(t); }

  void io_macros(std::string* h, const std::string& what, const std::vector<uint32_t>& list) const {
    *h += "#define " + m_ + "_" + what + "_COUNT " + std::to_string(list.size()) + "u\n";
    for (size_t i = 0; i < list.size(); ++i) {
      *h += "#define " + m_ + "_" + what + std::to_string(i) + "_BYTES " + std::to_string(tensor_bytes(g_.tensors[list[i]])) + "u\n";
    }
  }

  void kernel_declarations(std::string* c) const {
    std::map<std::string, bool> seen;
    for (const Node& n : g_.nodes) {
      if (seen[n.kernel]) continue;
      seen[n.kernel] = true;
      if (n.generated) {
        // As TVM's C backend declares its functions: the same ABI with other C types.
        *c += "int32_t " + n.kernel +
              "(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value, int32_t* out_ret_tcode, void* resource_handle);\n";
        continue;
      }
      *c += "int grt_kernel_" + n.kernel +
            "(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, int* ret_code, void* resource);\n";
    }
    *c += "\n";
  }

  void constants(std::string* c) const {
    for (size_t b = 0; b < g_.constants.size(); ++b) {
      const std::vector<uint8_t>& bytes = g_.constants[b];
      if (bytes.empty()) continue;
      *c += "static const uint8_t " + s_ + "_c" + std::to_string(b) + "[" + std::to_string(bytes.size()) + "] " + m_ + "_CONST = {";
      char number[8];
      for (size_t i = 0; i < bytes.size(); ++i) {
        std::snprintf(number, sizeof number, "%s%u,", i % 32 == 0 ? "\n  " : "", bytes[i]);
        *c += number;
      }
      *c += "\n};\n";
    }
    *c += "\n";
  }

  std::string data_expression(const Place& place) const {
    switch (place.kind) {
      case Place::kPool:
        return "(void*)(" + pool_name(place.index) + " + " + std::to_string(place.offset) + ")";
      case Place::kConstant:
        // A constant of no bytes has no array; its pointer is never read.
        if (g_.constants[place.index].empty()) return "NULL";
        return "(void*)(" + s_ + "_c" + std::to_string(place.index) + " + " + std::to_string(place.offset) + ")";
      default:
        return "NULL";
    }
  }

  void shapes_and_tensors(std::string* c) const {
    std::map<std::vector<int64_t>, std::string> shapes;
    for (const TensorArg& t : g_.tensors) {
      if (t.shape.empty() || shapes.count(t.shape) != 0) continue;
      const std::string name = s_ + "_s" + std::to_string(shapes.size());
      shapes[t.shape] = name;
      *c += "static const int64_t " + name + "[" + std::to_string(t.shape.size()) + "] = {";
      for (size_t i = 0; i < t.shape.size(); ++i) *c += (i == 0 ? "" : ", ") + std::to_string(t.shape[i]);
      *c += "};\n";
    }
    *c += "\n";
    for (uint32_t i = 0; i < g_.tensors.size(); ++i) {
      const TensorArg& t = g_.tensors[i];
      const std::string shape = t.shape.empty() ? "NULL" : "(int64_t*)" + shapes.at(t.shape);
      *c += "static const DLTensor " + tensor_name(i) + " = {" + data_expression(t.place) + ", {kDLCPU, 0}, " +
            std::to_string(t.shape.size()) + ", {" + std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) + ", " +
            std::to_string(t.dtype.lanes) + "}, " + shape + ", NULL, " + std::to_string(t.byte_offset) + "};\n";
    }
    *c += "\n";
  }

  std::string value(const Arg& a) const {
    switch (a.type_code) {
      case kTVMDLTensorHandle:
        return "{.v_handle = (void*)&" + tensor_name(a.tensor) + "}";
      case kTVMArgInt:
        return "{.v_int64 = " + int64_literal(a.bits) + "}";
      case kTVMArgFloat: {
        double v;
        std::memcpy(&v, &a.bits, sizeof v);
        if (std::isfinite(v)) {
          char text[64];
          std::snprintf(text, sizeof text, "%a", v);
          return std::string("{.v_float64 = ") + text + "}";
        }
        // Not finite: the double's bits, which the kernel reads back as v_float64.
        return "{.v_int64 = " + int64_literal(a.bits) + "}";
      }
      default:
        return "{.v_handle = NULL}";
    }
  }

  // Each node's values; type codes are shared between nodes with the same sequence.
  void arguments(std::string* c) const {
    std::map<std::vector<int>, std::string> code_arrays;
    codes_of_.clear();
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const Node& node = g_.nodes[n];
      if (node.args.empty()) continue;
      std::vector<int> codes;
      for (const Arg& a : node.args) codes.push_back(a.type_code);
      if (code_arrays.count(codes) == 0) {
        const std::string name = s_ + "_k" + std::to_string(code_arrays.size());
        code_arrays[codes] = name;
        *c += "static const int " + name + "[" + std::to_string(codes.size()) + "] = {";
        for (size_t i = 0; i < codes.size(); ++i) *c += (i == 0 ? "" : ", ") + std::to_string(codes[i]);
        *c += "};\n";
      }
      codes_of_.push_back(code_arrays[codes]);
      *c += "static const TVMValue " + s_ + "_a" + std::to_string(n) + "[" + std::to_string(node.args.size()) + "] = {";
      for (size_t i = 0; i < node.args.size(); ++i) *c += (i == 0 ? "" : ", ") + value(node.args[i]);
      *c += "};\n";
    }
    *c += "\n";
  }

  void run_function(std::string* c) const {
    *c += "#ifdef GRT_AOT_HOOKS\n";
    *c += "#define " + m_ + "_BEFORE(n) if (hooks != NULL && hooks->before_node != NULL && hooks->before_node(hooks->user, n) != 0) return grt_aot_leave(&context, -(n) - 1, message)\n";
    *c += "#define " + m_ + "_DONE(n) if (hooks != NULL && hooks->node_done != NULL) hooks->node_done(hooks->user, n)\n";
    *c += "#else\n#define " + m_ + "_BEFORE(n) (void)hooks\n#define " + m_ + "_DONE(n)\n#endif\n\n";
    *c += "static int " + s_ + "_execute(const grt_aot_hooks* hooks, const char** message) {\n";
    const bool any_generated = std::any_of(g_.nodes.begin(), g_.nodes.end(), [](const Node& n) { return n.generated; });
    const bool any_builtin = std::any_of(g_.nodes.begin(), g_.nodes.end(), [](const Node& n) { return !n.generated; });
    *c += "  grt_aot_context context;\n  TVMValue ret;\n";
    if (any_builtin) *c += "  int ret_code = 0;\n";
    // int32_t is long on some targets (arm-none-eabi): generated functions get their own.
    if (any_generated) *c += "  int32_t generated_ret_code = 0;\n";
    *c += "  grt_aot_enter(&context);\n";
    size_t with_args = 0;
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const Node& node = g_.nodes[n];
      const std::string index = std::to_string(n);
      *c += "  " + m_ + "_BEFORE(" + index + ");\n";
      // As the interpreter: a node without a planned workspace leaves the last one set.
      if (node.workspace_bytes != 0) {
        *c += "  grt_aot_workspace(&context, " + pool_name(node.workspace_pool) + " + " + std::to_string(node.workspace_offset) +
              ", " + std::to_string(node.workspace_bytes) + ");\n";
      }
      std::string values = "NULL";
      std::string codes = "NULL";
      if (!node.args.empty()) {
        values = (node.generated ? "(void*)" : "(TVMValue*)") + s_ + "_a" + index;
        codes = (node.generated ? "(int32_t*)" : "(int*)") + codes_of_[with_args++];
      }
      const std::string call = node.generated ? node.kernel + "(" + values + ", " + codes + ", " + std::to_string(node.args.size()) +
                                                    ", &ret, &generated_ret_code, NULL)"
                                              : "grt_kernel_" + node.kernel + "(" + values + ", " + codes + ", " +
                                                    std::to_string(node.args.size()) + ", &ret, &ret_code, NULL)";
      *c += "  if (" + call + " != 0) return grt_aot_leave(&context, " + std::to_string(n + 1) + ", message);\n";
      *c += "  " + m_ + "_DONE(" + index + ");\n";
    }
    *c += "  return grt_aot_leave(&context, 0, message);\n}\n\n";
    *c += "int " + s_ + "_run(const char** message) { return " + s_ + "_execute(NULL, message); }\n\n";
    *c += "#ifdef GRT_AOT_HOOKS\nint " + s_ + "_run_hooked(const grt_aot_hooks* hooks, const char** message) { return " + s_ +
          "_execute(hooks, message); }\n#endif\n\n";
  }

  // Copies of the initial bytes (from the constants above) or zeros, in the pools.
  void reset_function(std::string* c) const {
    *c += "void " + s_ + "_reset_state(void) {\n";
    for (const StateTensor& s : g_.states) {
      const std::string at = pool_name(s.pool) + " + " + std::to_string(s.offset);
      if (s.has_initial) {
        *c += "  memcpy(" + at + ", " + s_ + "_c" + std::to_string(s.initial) + ", " + std::to_string(s.bytes) + ");\n";
      } else {
        *c += "  memset(" + at + ", 0, " + std::to_string(s.bytes) + ");\n";
      }
    }
    *c += "}\n\n";
  }

  void accessors(std::string* c) const {
    const std::pair<const char*, const std::vector<uint32_t>*> lists[] = {{"input", &g_.inputs}, {"output", &g_.outputs}};
    for (const auto& [what, list] : lists) {
      const std::string table = s_ + "_" + what + "s";
      if (!list->empty()) {
        *c += "static const DLTensor* const " + table + "[" + std::to_string(list->size()) + "] = {";
        for (size_t i = 0; i < list->size(); ++i) *c += (i == 0 ? "&" : ", &") + tensor_name((*list)[i]);
        *c += "};\n";
        *c += "const DLTensor* " + s_ + "_" + what + "(uint32_t index) { return index < " + std::to_string(list->size()) +
              "u ? " + table + "[index] : NULL; }\n";
      } else {
        *c += "const DLTensor* " + s_ + "_" + what + "(uint32_t index) { (void)index; return NULL; }\n";
      }
    }
  }

  const Graph& g_;
  const AotOptions& o_;
  const std::string s_;  // the symbol
  const std::string m_;  // the symbol in capitals, for macros
  const std::string sha256_;
  mutable std::vector<std::string> codes_of_;  // each node with arguments: its type-code array
};

}  // namespace
}  // namespace grt::tools::aot

namespace grt::tools {

bool write_aot(const uint8_t* blob, size_t size, const AotOptions& options, AotFiles* out, std::string* error) {
  aot::Graph graph;
  if (!aot::record_graph(blob, size, options.generated_functions, &graph, error)) return false;
  const aot::Writer writer(graph, options, aot::sha256_hex(blob, size));
  out->header = writer.header();
  out->source = writer.source();
  return true;
}

}  // namespace grt::tools
