// The structure-aware mutator (blob_mutator.h) as libFuzzer's custom mutator, for the
// targets whose inputs are bare blobs (loader_fuzz, memory_fuzz). Envelopes and blobs the
// verifier refuses fall back to libFuzzer's byte mutations.
#include "blob_mutator.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return grt::fuzz::mutate_blob(data, size, max_size, seed);
}
