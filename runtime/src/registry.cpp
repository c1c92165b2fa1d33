// Kernel name resolution: the user's registrations (few, searched linearly) shadow the
// built-in table (sorted at compile time, binary search). Only init calls this.
#include <string.h>

#include "graphrt/graphrt.h"

namespace {

// strcmp order between a NUL-terminated entry and a counted name, which may hold NUL bytes
// (a FlatBuffers string can): never reads the entry past its terminator.
int compare(const char* entry, const char* name, size_t length) {
  for (size_t i = 0; i < length; ++i) {
    const unsigned char a = static_cast<unsigned char>(entry[i]);
    const unsigned char b = static_cast<unsigned char>(name[i]);
    if (a != b) return a < b ? -1 : 1;
    if (a == '\0') return -1;  // the entry ended; the name goes on after a NUL byte
  }
  return entry[length] == '\0' ? 0 : 1;
}

bool name_equals(const char* entry, const char* name, size_t length) { return compare(entry, name, length) == 0; }

}  // namespace

extern "C" {

void grt_registry_init(grt_registry* registry, grt_kernel_entry* storage, size_t capacity,
                       const grt_kernel_table* builtin) {
  registry->user_entries = storage;
  registry->user_count = 0;
  registry->user_capacity = storage == nullptr ? 0 : capacity;
  registry->builtin = builtin;
}

grt_status grt_registry_add_entry(grt_registry* registry, const grt_kernel_entry* entry) {
  if (registry == nullptr || entry == nullptr || entry->name == nullptr || entry->function == nullptr) return GRT_ERR_ARGUMENT;
  const size_t length = strlen(entry->name);
  for (size_t i = 0; i < registry->user_count; ++i) {
    if (name_equals(registry->user_entries[i].name, entry->name, length)) {
      registry->user_entries[i] = *entry;
      return GRT_OK;
    }
  }
  if (registry->user_count >= registry->user_capacity) return GRT_ERR_REGISTRY_FULL;
  registry->user_entries[registry->user_count++] = *entry;
  return GRT_OK;
}

grt_status grt_registry_add(grt_registry* registry, const char* name, TVMBackendPackedCFunc function,
                            TVMBackendPackedCFunc check) {
  const grt_kernel_entry entry = {name, function, check, 0, 0};
  return grt_registry_add_entry(registry, &entry);
}

const grt_kernel_entry* grt_registry_find(const grt_registry* registry, const char* name, size_t length) {
  if (registry == nullptr || name == nullptr) return nullptr;
  for (size_t i = 0; i < registry->user_count; ++i) {
    if (name_equals(registry->user_entries[i].name, name, length)) return &registry->user_entries[i];
  }
  const grt_kernel_table* table = registry->builtin;
  if (table == nullptr) return nullptr;
  size_t lo = 0;
  size_t hi = table->count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const int c = compare(table->entries[mid].name, name, length);
    if (c == 0) return &table->entries[mid];
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return nullptr;
}

}  // extern "C"
