// The plan report as text for people and JSON for programs.
#include <cstdio>

#include "graphrt/tools/memory_plan.h"

namespace grt::tools {

namespace {

std::string ratio_text(double ratio) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", ratio);
  return buffer;
}

double ratio_of(uint64_t size, uint64_t bound) {
  return bound == 0 ? 1.0 : static_cast<double>(size) / static_cast<double>(bound);
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string block_name(const Block& b, const ModelDef& model) {
  if (b.tensor >= 0) {
    const auto t = static_cast<size_t>(b.tensor);
    const std::string& name = t < model.tensors.size() ? model.tensors[t].name : std::string();
    return "tensor " + std::to_string(b.tensor) + (name.empty() ? "" : " '" + name + "'");
  }
  return "workspace of node " + std::to_string(b.node);
}

}  // namespace

std::string format_plan_text(const PlanReport& report, const ModelDef& model, bool with_blocks) {
  std::string out;
  for (size_t p = 0; p < report.pools.size(); ++p) {
    const PoolReport& pool = report.pools[p];
    out += "pool " + std::to_string(p) + " '" + pool.pool.name + "'";
    out += " (alignment " + std::to_string(pool.pool.alignment);
    if (!pool.pool.placement.empty()) out += ", placement " + pool.pool.placement;
    if (pool.pool.capacity != 0) out += ", capacity " + std::to_string(pool.pool.capacity);
    out += "): " + std::to_string(pool.blocks) + " blocks, " + std::to_string(pool.block_bytes) + " bytes unshared\n";
    out += "  " + padded("lower bound", 24) + std::to_string(pool.lower_bound) + "\n";
    for (const auto& s : pool.sizes) {
      out += "  " + padded(algorithm_name(s.algorithm), 24) + padded(std::to_string(s.size), 12) +
             ratio_text(ratio_of(s.size, pool.lower_bound)) + "\n";
    }
    out += "  " + padded(std::string("chosen: ") + algorithm_name(pool.chosen), 24) + padded(std::to_string(pool.size), 12) +
           ratio_text(pool.ratio) + "\n";
    if (!with_blocks) continue;
    for (const auto& placed : report.blocks) {
      if (placed.pool != p) continue;
      out += "    " + padded(std::to_string(placed.offset), 10) + padded(std::to_string(placed.block.size), 10) + "nodes " +
             padded(std::to_string(placed.block.live.first) + ".." + std::to_string(placed.block.live.last), 12) +
             block_name(placed.block, model) + "\n";
    }
  }
  out += "total " + std::to_string(report.total_size) + " bytes in " + std::to_string(report.pools.size()) +
         " pool(s); lower bound as one pool " + std::to_string(report.lower_bound) + "\n";
  return out;
}

std::string format_plan_json(const PlanReport& report, const ModelDef& model) {
  std::string out = "{\"total_size\":" + std::to_string(report.total_size) +
                    ",\"lower_bound\":" + std::to_string(report.lower_bound) + ",\"pools\":[";
  for (size_t p = 0; p < report.pools.size(); ++p) {
    const PoolReport& pool = report.pools[p];
    if (p != 0) out += ",";
    out += "{\"name\":" + json_string(pool.pool.name) + ",\"placement\":" + json_string(pool.pool.placement) +
           ",\"alignment\":" + std::to_string(pool.pool.alignment) + ",\"capacity\":" + std::to_string(pool.pool.capacity) +
           ",\"blocks\":" + std::to_string(pool.blocks) + ",\"block_bytes\":" + std::to_string(pool.block_bytes) +
           ",\"lower_bound\":" + std::to_string(pool.lower_bound) + ",\"sizes\":{";
    for (size_t s = 0; s < pool.sizes.size(); ++s) {
      if (s != 0) out += ",";
      out += json_string(algorithm_name(pool.sizes[s].algorithm)) + ":" + std::to_string(pool.sizes[s].size);
    }
    out += "},\"chosen\":" + json_string(algorithm_name(pool.chosen)) + ",\"size\":" + std::to_string(pool.size) +
           ",\"ratio\":" + ratio_text(pool.ratio) + "}";
  }
  out += "],\"blocks\":[";
  for (size_t i = 0; i < report.blocks.size(); ++i) {
    const PlacedBlock& placed = report.blocks[i];
    if (i != 0) out += ",";
    if (placed.block.tensor >= 0) {
      const auto t = static_cast<size_t>(placed.block.tensor);
      out += "{\"tensor\":" + std::to_string(placed.block.tensor) +
             ",\"name\":" + json_string(t < model.tensors.size() ? model.tensors[t].name : std::string());
    } else {
      out += "{\"workspace_of_node\":" + std::to_string(placed.block.node);
    }
    out += ",\"pool\":" + std::to_string(placed.pool) + ",\"offset\":" + std::to_string(placed.offset) +
           ",\"size\":" + std::to_string(placed.block.size) + ",\"first\":" + std::to_string(placed.block.live.first) +
           ",\"last\":" + std::to_string(placed.block.live.last) + ",\"accesses\":" + std::to_string(placed.block.accesses) + "}";
  }
  return out + "]}\n";
}

}  // namespace grt::tools
