#include "plan_checks.h"

namespace grt::test {

uint64_t TestRandom::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string plan_violation(const std::vector<tools::Block>& blocks, const std::vector<uint64_t>& offsets, uint64_t size) {
  if (offsets.size() != blocks.size()) return "offsets for " + std::to_string(offsets.size()) + " of " + std::to_string(blocks.size()) + " blocks";
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (offsets[i] % blocks[i].alignment != 0) return "block " + std::to_string(i) + " offset " + std::to_string(offsets[i]) + " not aligned";
    if (offsets[i] + blocks[i].size > size) return "block " + std::to_string(i) + " ends past the pool";
    for (size_t j = i + 1; j < blocks.size(); ++j) {
      const bool live_together = blocks[i].live.first <= blocks[j].live.last && blocks[j].live.first <= blocks[i].live.last;
      const bool share_bytes = blocks[i].size != 0 && blocks[j].size != 0 && offsets[i] < offsets[j] + blocks[j].size &&
                               offsets[j] < offsets[i] + blocks[i].size;
      if (live_together && share_bytes) return "blocks " + std::to_string(i) + " and " + std::to_string(j) + " overlap";
    }
  }
  return {};
}

std::vector<tools::Block> random_blocks(uint64_t seed, size_t max_blocks) {
  TestRandom random(seed);
  const size_t count = random.between(0, max_blocks);
  const uint32_t nodes = static_cast<uint32_t>(random.between(1, 30));
  const uint32_t alignments[] = {16, 16, 16, 16, 4, 32, 64};
  std::vector<tools::Block> blocks(count);
  for (size_t i = 0; i < count; ++i) {
    tools::Block& b = blocks[i];
    b.tensor = static_cast<int64_t>(i);
    b.size = random.between(0, 9) == 0 ? 0 : random.between(1, random.between(0, 3) == 0 ? 4096 : 512);
    b.alignment = alignments[random.between(0, 6)];
    b.live.first = static_cast<uint32_t>(random.between(0, nodes - 1));
    const uint32_t length = static_cast<uint32_t>(random.between(0, 3) == 0 ? random.between(0, nodes) : random.between(0, 2));
    b.live.last = std::min(nodes - 1, b.live.first + length);
    b.accesses = static_cast<uint32_t>(random.between(1, 6));
  }
  return blocks;
}

tools::ModelDef random_copy_model(uint64_t seed) {
  TestRandom random(seed);
  tools::ModelDef m;
  m.name = "random_copies";
  const int64_t input_bytes = static_cast<int64_t>(random.between(1, 64));
  std::vector<uint32_t> sources = {m.add_activation("x", tools::DType::Int8, {1, input_bytes})};
  std::vector<int64_t> widths = {input_bytes};
  m.inputs = {sources[0]};
  const int nodes = static_cast<int>(random.between(1, 24));
  for (int n = 0; n < nodes; ++n) {
    // Mostly recent tensors, sometimes an old one: that one then lives long.
    const size_t pick = random.between(0, 3) == 0 ? random.between(0, sources.size() - 1) : sources.size() - 1;
    uint32_t from = sources[pick];
    const int64_t width = widths[pick];
    if (random.between(0, 4) == 0) from = m.add_alias("view" + std::to_string(n), from, {width});
    const int64_t out_width = width + static_cast<int64_t>(random.between(0, 3) == 0 ? random.between(0, 300) : 0);
    const uint32_t to = m.add_activation("t" + std::to_string(n), tools::DType::Int8, {1, out_width});
    m.add_node("copy", {tools::ArgDef::input(from), tools::ArgDef::output(to)}, "copy" + std::to_string(n));
    if (random.between(0, 3) == 0) m.nodes.back().workspace_bytes = random.between(1, 200);
    sources.push_back(to);
    widths.push_back(out_width);
  }
  m.outputs = {sources.back()};
  return m;
}

}  // namespace grt::test
