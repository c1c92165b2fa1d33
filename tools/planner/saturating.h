// Overflow-free arithmetic for the planner: block sizes and offsets come from blobs and
// models that may declare anything, so sums and products saturate at UINT64_MAX instead of
// wrapping (plan_model refuses sizes anywhere near that before planning; see kMaxPlanBytes).
#ifndef GRAPHRT_TOOLS_PLANNER_SATURATING_H_
#define GRAPHRT_TOOLS_PLANNER_SATURATING_H_

#include <cstdint>

namespace grt::tools {

inline uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

inline uint64_t saturating_mul(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

// v rounded up to a multiple of alignment (>= 1), or UINT64_MAX when that does not fit.
inline uint64_t saturating_align_up(uint64_t v, uint64_t alignment) {
  const uint64_t remainder = v % alignment;
  return remainder == 0 ? v : saturating_add(v, alignment - remainder);
}

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_PLANNER_SATURATING_H_
