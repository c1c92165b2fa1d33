// What every plan must satisfy, checked independently of the planner's own code, and
// seeded random inputs for the property tests.
#ifndef GRAPHRT_TESTS_UNIT_PLANNER_PLAN_CHECKS_H_
#define GRAPHRT_TESTS_UNIT_PLANNER_PLAN_CHECKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace grt::test {

// A fixed sequence for a seed on every platform (std distributions are not).
class TestRandom {
 public:
  explicit TestRandom(uint64_t seed) : state_(seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint64_t next();
  // In [low, high].
  uint64_t between(uint64_t low, uint64_t high) { return low + next() % (high - low + 1); }

 private:
  uint64_t state_;
};

// Empty when `offsets` is a valid plan of `blocks` in a pool of `size` bytes: every offset
// aligned, every block inside the pool, no two blocks live at one node sharing a byte.
// Otherwise says what is wrong.
std::string plan_violation(const std::vector<tools::Block>& blocks, const std::vector<uint64_t>& offsets, uint64_t size);

// Between 0 and `max_blocks` blocks over up to 30 nodes: mostly short-lived, sizes from
// empty to a few KiB, alignments 16 (mostly), 4, 32 or 64, 1 to 6 accesses.
std::vector<tools::Block> random_blocks(uint64_t seed, size_t max_blocks = 40);

// A model of copy nodes the runtime can run: x -> ... -> y where each node copies a tensor
// still in use into a new one at least as large, some nodes with workspaces, some tensors
// read by several later nodes, some through aliases. y's first bytes are x's bytes.
tools::ModelDef random_copy_model(uint64_t seed);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_UNIT_PLANNER_PLAN_CHECKS_H_
