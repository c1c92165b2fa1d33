// A plain (uncompressed) ustar reader, enough for the archives TVM writes, and the parts
// of metadata.json graphrt uses.
#include "model_library_format.h"

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

namespace grt::tools::tvm {
namespace {

struct TarFile {
  std::string path;  // without a leading "./"
  const uint8_t* data = nullptr;
  size_t size = 0;
};

bool parse_octal(const uint8_t* field, size_t length, uint64_t* out) {
  uint64_t value = 0;
  size_t i = 0;
  while (i < length && field[i] == ' ') ++i;
  for (; i < length && field[i] >= '0' && field[i] <= '7'; ++i) {
    if (value > (uint64_t{1} << 40)) return false;
    value = value * 8 + (field[i] - '0');
  }
  *out = value;
  return true;
}

std::string field_text(const uint8_t* field, size_t length) {
  size_t n = 0;
  while (n < length && field[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(field), n);
}

bool list_tar(const uint8_t* data, size_t size, std::vector<TarFile>* files, std::string* error) {
  size_t at = 0;
  while (at + 512 <= size) {
    const uint8_t* h = data + at;
    bool zero = true;
    for (size_t i = 0; i < 512 && zero; ++i) zero = h[i] == 0;
    if (zero) return true;  // end of archive
    uint64_t length = 0;
    if (!parse_octal(h + 124, 12, &length)) {
      *error = "Model Library Format: a tar header's size is not octal";
      return false;
    }
    const char type = static_cast<char>(h[156]);
    std::string path = field_text(h + 345, 155);
    path = (path.empty() ? "" : path + "/") + field_text(h, 100);
    if (path.rfind("./", 0) == 0) path.erase(0, 2);
    at += 512;
    if (length > size - at) {
      *error = "Model Library Format: '" + path + "' is truncated";
      return false;
    }
    if (type == '0' || type == '\0') files->push_back({path, data + at, static_cast<size_t>(length)});
    at += static_cast<size_t>((length + 511) / 512 * 512);
  }
  if (at != size) {
    *error = "Model Library Format: the archive ends inside a tar header";
    return false;
  }
  return true;
}

bool ends_with(const std::string& s, const char* tail) {
  const size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The one file under `folder` ending in `suffix`.
const TarFile* only_file(const std::vector<TarFile>& files, const std::string& folder, const char* suffix, std::string* error) {
  const TarFile* found = nullptr;
  for (const TarFile& f : files) {
    if (f.path.rfind(folder, 0) != 0 || !ends_with(f.path, suffix)) continue;
    if (found != nullptr) {
      *error = "Model Library Format: several modules (" + found->path + ", " + f.path + "); graphrt takes one";
      return nullptr;
    }
    found = &f;
  }
  if (found == nullptr) *error = "Model Library Format: no " + folder + "*" + suffix + " (graphrt needs the graph executor)";
  return found;
}

// Calls to TVMBackendAllocWorkspace inside the body of function `name` in C `source`, or -1
// when the source does not define it.
int allocations_in(const std::string& source, const std::string& name) {
  size_t at = 0;
  while ((at = source.find(name + "(", at)) != std::string::npos) {
    const size_t open = source.find_first_of("{;", at);
    if (open == std::string::npos) return -1;
    if (source[open] == ';') {  // a declaration
      at = open;
      continue;
    }
    int depth = 0, calls = 0;
    for (size_t i = open; i < source.size(); ++i) {
      if (source[i] == '{') ++depth;
      if (source[i] == '}' && --depth == 0) return calls;
      if (source.compare(i, 24, "TVMBackendAllocWorkspace") == 0) ++calls;
    }
    return -1;
  }
  return -1;
}

}  // namespace

bool read_model_library_format(const uint8_t* data, size_t size, Artifacts* out, std::string* error) {
  std::vector<TarFile> files;
  if (!list_tar(data, size, &files, error)) return false;
  const TarFile* graph = only_file(files, "executor-config/graph/", ".graph", error);
  if (graph == nullptr) graph = only_file(files, "executor-config/graph/", ".json", error);
  if (graph == nullptr) return false;
  const TarFile* params = only_file(files, "parameters/", ".params", error);
  if (params == nullptr) return false;
  const TarFile* metadata = only_file(files, "metadata.json", "metadata.json", error);
  if (metadata == nullptr) return false;
  out->graph_json.assign(reinterpret_cast<const char*>(graph->data), graph->size);
  out->params.assign(params->data, params->data + params->size);
  out->metadata_json.assign(reinterpret_cast<const char*>(metadata->data), metadata->size);
  out->sources.clear();
  for (const TarFile& f : files) {
    if (f.path.rfind("codegen/host/src/", 0) == 0 && ends_with(f.path, ".c")) {
      out->sources.append(reinterpret_cast<const char*>(f.data), f.size).append("\n");
    }
  }
  return true;
}

bool workspaces_from_metadata(const Artifacts& artifacts, ModelDef* model, std::string* error) {
  using nlohmann::json;
  const json root = json::parse(artifacts.metadata_json, nullptr, false);
  std::map<std::string, uint64_t> bytes;
  const auto modules = root.is_object() ? root.find("modules") : root.end();
  if (modules == root.end() || !modules->is_object() || modules->size() != 1) {
    *error = "metadata.json: no single module in \"modules\"";
    return false;
  }
  const json& module = modules->begin().value();
  const json* functions = nullptr;
  if (module.is_object() && module.contains("memory") && module["memory"].is_object() && module["memory"].contains("functions") &&
      module["memory"]["functions"].is_object() && module["memory"]["functions"].contains("operator_functions")) {
    functions = &module["memory"]["functions"]["operator_functions"];
  }
  if (functions == nullptr || !functions->is_array()) {
    *error = "metadata.json: no memory.functions.operator_functions";
    return false;
  }
  for (const json& f : *functions) {
    if (!f.is_object() || !f.contains("function_name") || !f["function_name"].is_string() || !f.contains("workspace") ||
        !f["workspace"].is_array()) {
      *error = "metadata.json: an operator function without function_name and workspace";
      return false;
    }
    uint64_t total = 0;
    for (const json& w : f["workspace"]) {
      if (!w.is_object() || !w.contains("workspace_size_bytes") || !w["workspace_size_bytes"].is_number_unsigned()) {
        *error = "metadata.json: " + f["function_name"].get<std::string>() + ": workspace_size_bytes is not a whole number";
        return false;
      }
      total += w["workspace_size_bytes"].get<uint64_t>();
    }
    bytes[f["function_name"].get<std::string>()] = total;
  }
  for (NodeDef& n : model->nodes) {
    const std::string& name = model->kernels[n.kernel];
    const auto it = bytes.find(name);
    if (it == bytes.end()) {
      *error = "metadata.json does not list " + name + " (node '" + n.name + "')";
      return false;
    }
    if (it->second == 0) continue;
    // TVM's figure is the bytes its allocations take, each rounded to 16, all live at once
    // (the generated code frees them in reverse at the end); graphrt's stack adds a 16-byte
    // header to each.
    const int calls = allocations_in(artifacts.sources, name);
    if (calls <= 0) {
      *error = "metadata.json gives " + name + " a workspace, but codegen/host/src does not show its allocations";
      return false;
    }
    n.workspace_bytes = (it->second + 15) / 16 * 16 + 16 * static_cast<uint64_t>(calls);
  }
  return true;
}

}  // namespace grt::tools::tvm
