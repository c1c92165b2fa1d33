// The built-in kernel table. Each family lists its kernels in an entries.inc file as
// GRT_KERNEL(name, writes) lines (each name has a grt_kernel_<name> and a grt_check_<name>;
// `writes` says which arguments it writes, see grt_kernel_entry), or as
// GRT_IN_PLACE_KERNEL(name, writes, overwrites) lines for kernels whose output may share an
// input's bytes (`overwrites`, audited per kernel: see grt_kernel_entry). The table is sorted
// here at compile time, so adding a kernel is one line and lookup is a binary search with no
// start-up cost.
#include <stddef.h>

#include "graphrt/kernels.h"

#define GRT_KERNEL(name, writes)                                                             \
  extern "C" int grt_kernel_##name(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, \
                                   int* ret_code, void* resource);                              \
  extern "C" int grt_check_##name(TVMValue* args, int* type_codes, int num_args, TVMValue* ret,  \
                                  int* ret_code, void* resource);
#define GRT_IN_PLACE_KERNEL(name, writes, overwrites) GRT_KERNEL(name, writes)
#include "basic/entries.inc"
#include "conv/entries.inc"
#include "dense/entries.inc"
#include "elementwise/entries.inc"
#include "pool/entries.inc"
#include "activation/entries.inc"
#include "binary/entries.inc"
#include "movement/entries.inc"
#include "reduce/entries.inc"
#include "signal/entries.inc"
#include "state/entries.inc"
#include "control/entries.inc"
#undef GRT_KERNEL
#undef GRT_IN_PLACE_KERNEL

namespace {

constexpr grt_kernel_entry kUnsorted[] = {
#define GRT_KERNEL(name, writes) {#name, grt_kernel_##name, grt_check_##name, writes, 0},
#define GRT_IN_PLACE_KERNEL(name, writes, overwrites) {#name, grt_kernel_##name, grt_check_##name, writes, overwrites},
#include "basic/entries.inc"
#include "conv/entries.inc"
#include "dense/entries.inc"
#include "elementwise/entries.inc"
#include "pool/entries.inc"
#include "activation/entries.inc"
#include "binary/entries.inc"
#include "movement/entries.inc"
#include "reduce/entries.inc"
#include "signal/entries.inc"
#include "state/entries.inc"
#include "control/entries.inc"
#undef GRT_KERNEL
#undef GRT_IN_PLACE_KERNEL
};
constexpr size_t kCount = sizeof(kUnsorted) / sizeof(kUnsorted[0]);

constexpr int compare_names(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return static_cast<int>(static_cast<unsigned char>(*a)) - static_cast<int>(static_cast<unsigned char>(*b));
}

struct SortedEntries {
  grt_kernel_entry entries[kCount];
};

constexpr SortedEntries sort_entries() {
  SortedEntries s{};
  for (size_t i = 0; i < kCount; ++i) s.entries[i] = kUnsorted[i];
  for (size_t i = 1; i < kCount; ++i) {
    for (size_t j = i; j > 0 && compare_names(s.entries[j - 1].name, s.entries[j].name) > 0; --j) {
      const grt_kernel_entry t = s.entries[j - 1];
      s.entries[j - 1] = s.entries[j];
      s.entries[j] = t;
    }
  }
  return s;
}

constexpr bool names_unique(const SortedEntries& s) {
  for (size_t i = 1; i < kCount; ++i) {
    if (compare_names(s.entries[i - 1].name, s.entries[i].name) == 0) return false;
  }
  return true;
}

constexpr SortedEntries kSorted = sort_entries();
static_assert(names_unique(kSorted), "two kernels share a name");

constexpr grt_kernel_table kTable = {kSorted.entries, kCount};

}  // namespace

extern "C" const grt_kernel_table* grt_builtin_kernels(void) { return &kTable; }

extern "C" const grt_kernel_entry* grt_builtin_kernel_find(const char* name) {
  if (name == nullptr) return nullptr;
  size_t low = 0, high = kCount;
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    const int order = compare_names(name, kSorted.entries[mid].name);
    if (order == 0) return &kSorted.entries[mid];
    if (order < 0) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return nullptr;
}
