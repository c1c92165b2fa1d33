// The plan report as text for people and JSON for programs.
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

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
  const PlanReport::Comparison& c = report.comparison;
  if (c.plain != 0 || c.in_place != 0) {
    out += padded("liveness bound", 16) + padded("plan", 12) + "plan with in-place operators\n";
    out += padded(std::to_string(report.lower_bound), 16) + padded(std::to_string(c.plain), 12) + padded(std::to_string(c.in_place), 12) +
           "(" + std::to_string(c.in_place_pairs) + " outputs over a dying input; ratio to the bound " +
           ratio_text(ratio_of(c.in_place, report.lower_bound)) + ")\n";
    if (c.bands != 0) {
      char extra[32];
      std::snprintf(extra, sizeof extra, "%.1f", c.band_extra_macs_percent);
      out += padded("plan with bands", 28) + padded(std::to_string(c.bands), 12) + "(" + std::to_string(c.band_chains) +
             (c.band_chains == 1 ? " chain" : " chains") + " cut into bands, " + std::to_string(c.band_nodes) + " nodes instead of " + std::to_string(model.nodes.size()) +
             "; halos " + extra + " % extra MACs, " + std::to_string(c.band_copied_bytes) +
             " bytes of kept rows moved; ratio to the bound " +
             ratio_text(ratio_of(c.bands, report.lower_bound));
      if (c.band_activations != c.bands) {
        out += "; besides the caller's inputs " + std::to_string(c.band_activations) + ", ratio " +
               ratio_text(ratio_of(c.band_activations, report.lower_bound));
      }
      out += ")\n";
    }
  }
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
  // Members in the order written, as the text report shows them.
  using Json = nlohmann::ordered_json;
  Json pools = Json::array();
  for (const PoolReport& pool : report.pools) {
    Json sizes = Json::object();
    for (const auto& s : pool.sizes) sizes[algorithm_name(s.algorithm)] = s.size;
    pools.push_back({{"name", pool.pool.name},
                     {"placement", pool.pool.placement},
                     {"alignment", pool.pool.alignment},
                     {"capacity", pool.pool.capacity},
                     {"blocks", pool.blocks},
                     {"block_bytes", pool.block_bytes},
                     {"lower_bound", pool.lower_bound},
                     {"sizes", std::move(sizes)},
                     {"chosen", algorithm_name(pool.chosen)},
                     {"size", pool.size},
                     {"ratio", std::round(pool.ratio * 1000) / 1000}});  // three decimals, as the text report
  }
  Json blocks = Json::array();
  for (const PlacedBlock& placed : report.blocks) {
    Json block = Json::object();
    if (placed.block.tensor >= 0) {
      const auto t = static_cast<size_t>(placed.block.tensor);
      block = {{"tensor", placed.block.tensor}, {"name", t < model.tensors.size() ? model.tensors[t].name : std::string()}};
    } else {
      block["workspace_of_node"] = placed.block.node;
    }
    block["pool"] = placed.pool;
    block["offset"] = placed.offset;
    block["size"] = placed.block.size;
    block["first"] = placed.block.live.first;
    block["last"] = placed.block.live.last;
    block["accesses"] = placed.block.accesses;
    blocks.push_back(std::move(block));
  }
  Json j = {{"total_size", report.total_size}, {"lower_bound", report.lower_bound}, {"in_place_pairs", report.in_place_pairs}};
  if (report.comparison.plain != 0 || report.comparison.in_place != 0) {
    j["plain_size"] = report.comparison.plain;
    j["in_place_size"] = report.comparison.in_place;
  }
  if (report.comparison.bands != 0) {
    j["band_size"] = report.comparison.bands;
    j["band_size_besides_inputs"] = report.comparison.band_activations;
    j["band_chains"] = report.comparison.band_chains;
    j["band_extra_macs_percent"] = std::round(report.comparison.band_extra_macs_percent * 10) / 10;
    j["band_copied_bytes"] = report.comparison.band_copied_bytes;
    j["band_nodes"] = report.comparison.band_nodes;
    j["plain_nodes"] = model.nodes.size();
  }
  j["pools"] = std::move(pools);
  j["blocks"] = std::move(blocks);
  // Names come from users' files: bytes that are not UTF-8 become U+FFFD, not an exception.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace grt::tools
