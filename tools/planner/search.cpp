// The improving search over placement orders (see plan_search in planner.h).
#include <algorithm>
#include <chrono>
#include <numeric>

#include "graphrt/tools/planner.h"
#include "saturating.h"

namespace grt::tools {

namespace {

// splitmix64: a fixed, portable sequence for a seed, unlike std::uniform_int_distribution.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n) for move selection; n > 0.
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

// A placement's quality: the unrounded top, which has more gradient than the pool size.
uint64_t top_of(const std::vector<Block>& blocks, const std::vector<uint64_t>& offsets) {
  uint64_t top = 0;
  for (size_t i = 0; i < blocks.size(); ++i) top = std::max(top, saturating_add(offsets[i], blocks[i].size));
  return top;
}

uint64_t round16(uint64_t v) { return saturating_align_up(v, 16); }

std::vector<uint32_t> sorted_order(size_t n, auto before) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return before(a, b) || (!before(b, a) && a < b); });
  return order;
}

// The greedy orders the search starts from; greedy by size first.
std::vector<std::vector<uint32_t>> starting_orders(const std::vector<Block>& blocks, const ConflictLists& conflicts) {
  const auto length = [&](uint32_t i) { return uint64_t{blocks[i].live.last} - blocks[i].live.first + 1; };
  return {
      sorted_order(blocks.size(),
                   [&](uint32_t a, uint32_t b) {
                     if (blocks[a].size != blocks[b].size) return blocks[a].size > blocks[b].size;
                     return blocks[a].live.first < blocks[b].live.first;
                   }),
      sorted_order(blocks.size(),
                   [&](uint32_t a, uint32_t b) {
                     if (conflicts[a].size() != conflicts[b].size()) return conflicts[a].size() > conflicts[b].size();
                     return blocks[a].size > blocks[b].size;
                   }),
      // Longest-lived and largest area first: they constrain the most nodes.
      sorted_order(blocks.size(), [&](uint32_t a, uint32_t b) { return saturating_mul(blocks[a].size, length(a)) > saturating_mul(blocks[b].size, length(b)); }),
      // In node order, like a stack that frees what died.
      sorted_order(blocks.size(),
                   [&](uint32_t a, uint32_t b) {
                     if (blocks[a].live.first != blocks[b].live.first) return blocks[a].live.first < blocks[b].live.first;
                     return blocks[a].size > blocks[b].size;
                   }),
  };
}

// One random change to an order. Half the moves lift a block at the peak, or one of the
// blocks it conflicts with, to an earlier place: that is what lowers the peak.
void mutate(const std::vector<Block>& blocks, const ConflictLists& conflicts, const std::vector<uint64_t>& offsets, uint64_t top,
            Random* random, std::vector<uint32_t>* order) {
  const size_t n = order->size();
  const auto position_of = [&](uint32_t block) {
    return static_cast<size_t>(std::find(order->begin(), order->end(), block) - order->begin());
  };
  const auto move = [&](size_t from, size_t to) {
    const uint32_t block = (*order)[from];
    order->erase(order->begin() + static_cast<std::ptrdiff_t>(from));
    order->insert(order->begin() + static_cast<std::ptrdiff_t>(to), block);
  };
  const size_t kind = random->below(4);
  if (kind < 2) {
    std::vector<uint32_t> at_peak;
    for (uint32_t i = 0; i < blocks.size(); ++i) {
      if (saturating_add(offsets[i], blocks[i].size) == top && blocks[i].size != 0) at_peak.push_back(i);
    }
    if (!at_peak.empty()) {
      uint32_t block = at_peak[random->below(at_peak.size())];
      if (kind == 1 && !conflicts[block].empty()) block = conflicts[block][random->below(conflicts[block].size())];
      const size_t from = position_of(block);
      move(from, from == 0 ? random->below(n) : random->below(from));
      return;
    }
  }
  const size_t a = random->below(n);
  const size_t b = random->below(n);
  if (kind == 2) {
    std::swap((*order)[a], (*order)[b]);
  } else {
    move(a, b);
  }
}

}  // namespace

uint64_t plan_search(const std::vector<Block>& blocks, const SearchOptions& options, std::vector<uint64_t>* offsets) {
  offsets->assign(blocks.size(), 0);
  if (blocks.empty()) return 0;
  const ConflictLists conflicts = conflict_lists(blocks);
  const uint64_t floor = size_floor(blocks);

  std::vector<uint32_t> best_order;
  std::vector<uint64_t> best_offsets;
  uint64_t best_top = UINT64_MAX;
  std::vector<uint64_t> trial;
  const auto consider = [&](const std::vector<uint32_t>& order) {
    place_in_order(blocks, conflicts, order, &trial);
    const uint64_t top = top_of(blocks, trial);
    if (top < best_top) {
      best_top = top;
      best_order = order;
      best_offsets = trial;
    }
    return top;
  };
  const auto done = [&] { return round16(best_top) <= floor; };

  for (const auto& order : starting_orders(blocks, conflicts)) {
    consider(order);
    if (done()) break;
  }

  if (!done() && blocks.size() <= options.exhaustive_up_to) {
    std::vector<uint32_t> order(blocks.size());
    std::iota(order.begin(), order.end(), 0u);
    do {
      consider(order);
    } while (!done() && std::next_permutation(order.begin(), order.end()));
  }

  if (!done() && blocks.size() > options.exhaustive_up_to && blocks.size() > 1) {
    // Late-acceptance hill climbing: take a change if it is no worse than the current plan
    // or than the plan of `history.size()` steps ago, which lets it cross plateaus.
    Random random(options.seed);
    const auto start = std::chrono::steady_clock::now();
    std::vector<uint32_t> current_order = best_order;
    std::vector<uint64_t> current_offsets = best_offsets;
    uint64_t current_top = best_top;
    std::vector<uint64_t> history(32, current_top);
    std::vector<uint32_t> candidate;
    for (uint64_t k = 0; k < options.iterations && !done(); ++k) {
      if (options.time_limit_seconds > 0 && k % 64 == 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > options.time_limit_seconds) {
        break;
      }
      candidate = current_order;
      mutate(blocks, conflicts, current_offsets, current_top, &random, &candidate);
      const uint64_t top = consider(candidate);
      uint64_t& past = history[k % history.size()];
      if (top <= current_top || top <= past) {
        current_order.swap(candidate);
        current_offsets = trial;
        current_top = top;
      }
      past = current_top;
    }
  }
  *offsets = best_offsets;
  return round16(best_top);
}

}  // namespace grt::tools
