// libFuzzer target: everything a device does with bytes it was handed. The envelope check
// (in memory and streamed, which must agree), then the model inside (or the input itself
// as a bare model): FlatBuffers' verifier and the loader's checks via
// grt_model_requirements, then grt_init with the static strategy and one grt_run.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "blob_mutator.h"
#include "graphrt/graphrt.h"
#include "graphrt/integrity.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "mbedtls/sha256.h"

namespace {

// No pool the fuzzer makes us allocate may exceed this: the loader must be safe for any
// size, but the host running the fuzzer has finite memory.
constexpr uint64_t kMemoryCap = 16u << 20;

// A structurally valid P-256 key, so signed inputs reach signature verification.
constexpr uint8_t kTrustedKeyDer[91] = {
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
    0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04, 0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6,
    0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98,
    0xc2, 0x96, 0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f, 0x9e, 0x16, 0x2b,
    0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5};

const grt_trusted_key kKeys[] = {{"fuzz-1", kTrustedKeyDer, sizeof kTrustedKeyDer},
                                 {"bad-key", kTrustedKeyDer, 40}};

void must(bool condition) {
  if (!condition) std::abort();
}

void load_and_run(const void* model, size_t size) {
  grt_error error{};
  grt_requirements requirements{};
  if (grt_model_requirements(model, size, GRT_STRATEGY_STATIC, &requirements, &error) != GRT_OK) return;
  must(requirements.pool_count <= GRT_MAX_POOLS);
  uint64_t total = requirements.bookkeeping_bytes;
  for (uint32_t p = 0; p < requirements.pool_count; ++p) total += requirements.pool_bytes[p];
  if (total > kMemoryCap) return;
  grt::tools::AlignedBytes storage(requirements.bookkeeping_bytes);
  std::vector<grt::tools::AlignedBytes> pools;
  std::vector<void*> pointers;
  std::vector<size_t> sizes;
  for (uint32_t p = 0; p < requirements.pool_count; ++p) {
    pools.emplace_back(requirements.pool_bytes[p]);
    pointers.push_back(pools.back().data());
    sizes.push_back(requirements.pool_bytes[p]);
  }
  grt_kernel_entry user[4];
  grt_registry registry;
  grt_registry_init(&registry, user, 4, grt_builtin_kernels());
  grt_options options{};
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pointers.data();
  options.memory.pool_sizes = sizes.data();
  options.memory.pool_count = requirements.pool_count;
  uint32_t nodes_run = 0;
  grt_hooks hooks;
  options.hooks = grt::fuzz::loop_bound_hooks(model, &nodes_run, &hooks);
  grt_executor* executor = nullptr;
  if (grt_init(&executor, storage.data(), storage.size(), model, size, &options, &error) != GRT_OK) return;
  grt_run(executor);
  grt_release(executor);
}

grt_status open_in_memory(const grt::tools::AlignedBytes& bytes, const grt_trust_config* trust, const void** model,
                          size_t* model_size) {
  grt_error error{};
  const grt_status status = grt_envelope_open(bytes.data(), bytes.size(), trust, model, model_size, nullptr, &error);
  must(error.status == status && std::strlen(error.message) < GRT_ERROR_MESSAGE_SIZE);
  must(status == GRT_OK || *model == nullptr);
  return status;
}

// The streaming form must reach the in-memory verdict whatever the chunking.
void expect_stream_agrees(const grt::tools::AlignedBytes& bytes, const grt_trust_config* trust, size_t chunk,
                          grt_status expected) {
  grt_envelope_stream stream;
  grt_error error{};
  grt_envelope_stream_init(&stream, trust, &error);
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    if (grt_envelope_stream_update(&stream, bytes.data() + at, std::min(chunk, bytes.size() - at), &error) != GRT_OK) break;
  }
  must(grt_envelope_stream_finish(&stream, nullptr, &error) == expected);
}

// Gives an envelope-shaped input the digest it claims, so the fuzzer gets past SHA-256 to
// the checks behind it and to the model inside.
void fix_digest(grt::tools::AlignedBytes* bytes) {
  mbedtls_sha256_context sha;
  mbedtls_sha256_init(&sha);
  mbedtls_sha256_starts_ret(&sha, 0);
  mbedtls_sha256_update_ret(&sha, bytes->data(), 64);
  mbedtls_sha256_update_ret(&sha, bytes->data() + GRT_ENVELOPE_HEADER_SIZE, bytes->size() - GRT_ENVELOPE_HEADER_SIZE);
  mbedtls_sha256_finish_ret(&sha, bytes->data() + 64);
  mbedtls_sha256_free(&sha);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  grt::tools::AlignedBytes bytes = grt::fuzz::aligned_copy(data, size);
  const grt_trust_config strict{kKeys, 2, 1, 3};
  const grt_trust_config digest_only{kKeys, 2, 0, 0};
  const void* model = nullptr;
  size_t model_size = 0;

  const grt_status verdict = open_in_memory(bytes, &strict, &model, &model_size);
  expect_stream_agrees(bytes, &strict, 1 + (size == 0 ? 0 : data[size - 1] % 200), verdict);
  if (verdict == GRT_OK) load_and_run(model, model_size);

  if (size >= GRT_ENVELOPE_HEADER_SIZE && std::memcmp(data, GRT_ENVELOPE_MAGIC, 4) == 0) {
    fix_digest(&bytes);
    const grt_status fixed = open_in_memory(bytes, &digest_only, &model, &model_size);
    expect_stream_agrees(bytes, &digest_only, 64, fixed);
    if (fixed == GRT_OK) load_and_run(model, model_size);
  } else {
    load_and_run(bytes.data(), bytes.size());
  }
  return 0;
}
