#include <algorithm>
#include <utility>

#include "graphrt/tools/planner.h"
#include "saturating.h"

namespace grt::tools {

uint64_t place_in_order(const std::vector<Block>& blocks, const ConflictLists& conflicts, const std::vector<uint32_t>& order,
                        std::vector<uint64_t>* offsets) {
  offsets->assign(blocks.size(), 0);
  std::vector<bool> placed(blocks.size(), false);
  std::vector<std::pair<uint64_t, uint64_t>> taken;  // [begin, end) of placed conflicting blocks
  uint64_t top = 0;
  for (const uint32_t i : order) {
    const Block& b = blocks[i];
    const uint64_t alignment = std::max<uint64_t>(b.alignment, 1);
    taken.clear();
    for (const uint32_t j : conflicts[i]) {
      if (placed[j]) taken.emplace_back((*offsets)[j], saturating_add((*offsets)[j], blocks[j].size));
    }
    std::sort(taken.begin(), taken.end());
    // The lowest gap between taken ranges that holds the block once aligned.
    uint64_t candidate = 0;
    for (const auto& [begin, end] : taken) {
      if (saturating_add(saturating_align_up(candidate, alignment), b.size) <= begin) break;
      candidate = std::max(candidate, end);
    }
    (*offsets)[i] = saturating_align_up(candidate, alignment);
    placed[i] = true;
    top = std::max(top, saturating_add((*offsets)[i], b.size));
  }
  return saturating_align_up(top, 16);
}

}  // namespace grt::tools
