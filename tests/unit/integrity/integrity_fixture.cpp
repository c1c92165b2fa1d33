#include "integrity_fixture.h"

#include <gtest/gtest.h>

#include <cstring>

#include "graphrt/kernels.h"
#include "test_models.h"

namespace grt::test {
namespace {

TestKey make_key() {
  TestKey key;
  std::string error;
  if (!signing::generate_key_pair(&key.pair, &error) || !signing::public_key_der(key.pair.public_key_pem, &key.der, &error)) {
    ADD_FAILURE() << error;
  }
  return key;
}

tools::AlignedBytes aligned(const std::vector<uint8_t>& bytes) { return tools::AlignedBytes(bytes); }

}  // namespace

const TestKey& prod_key() {
  static const TestKey key = make_key();
  return key;
}

const TestKey& other_key() {
  static const TestKey key = make_key();
  return key;
}

Trust::Trust(std::vector<std::pair<std::string, const TestKey*>> trusted, bool require_signature, uint64_t minimum_version) {
  ids.reserve(trusted.size());
  for (const auto& [id, key] : trusted) {
    ids.push_back(id);
    keys.push_back({ids.back().c_str(), key->der.data(), key->der.size()});
  }
  config.keys = keys.data();
  config.key_count = keys.size();
  config.require_signature = require_signature ? 1 : 0;
  config.minimum_model_version = minimum_version;
}

const Trust& standard_trust() {
  static const Trust trust({{"prod-1", &prod_key()}}, true, 5);
  return trust;
}

tools::AlignedBytes signed_envelope(const std::vector<uint8_t>& model, const TestKey& key, const std::string& key_id,
                                    uint64_t model_version) {
  std::vector<uint8_t> envelope;
  std::string error;
  if (!signing::sign_model(model, key.pair.private_key_pem, key_id, model_version, &envelope, &error)) ADD_FAILURE() << error;
  return aligned(envelope);
}

tools::AlignedBytes unsigned_envelope(const std::vector<uint8_t>& model, uint64_t model_version) {
  std::vector<uint8_t> envelope;
  std::string error;
  signing::EnvelopeOptions options;
  options.model_version = model_version;
  if (!signing::make_envelope(model, options, &envelope, &error)) ADD_FAILURE() << error;
  return aligned(envelope);
}

Verdict open_envelope(const uint8_t* bytes, size_t size, const grt_trust_config* trust) {
  Verdict v;
  grt_error error{};
  v.status = grt_envelope_open(bytes, size, trust, &v.model, &v.model_size, &v.info, &error);
  EXPECT_EQ(error.status, v.status);
  v.message = error.message;
  return v;
}

Verdict stream_envelope(const uint8_t* bytes, size_t size, const grt_trust_config* trust, size_t chunk) {
  Verdict v;
  grt_envelope_stream stream;
  grt_error error{};
  EXPECT_EQ(grt_envelope_stream_init(&stream, trust, &error), GRT_OK);
  for (size_t at = 0; at < size; at += chunk) {
    const size_t n = std::min(chunk, size - at);
    if (grt_envelope_stream_update(&stream, bytes + at, n, &error) != GRT_OK) break;
  }
  v.status = grt_envelope_stream_finish(&stream, &v.info, &error);
  v.message = error.message;
  return v;
}

RunResult run_in_place(const void* model, size_t size, uint8_t fill) {
  RunResult result;
  grt_error error{};
  grt_requirements requirements{};
  result.status = grt_model_requirements(model, size, GRT_STRATEGY_STATIC, &requirements, &error);
  if (result.status != GRT_OK) {
    result.message = error.message;
    return result;
  }
  tools::AlignedBytes storage(requirements.bookkeeping_bytes);
  std::vector<tools::AlignedBytes> pools;
  std::vector<void*> pointers;
  std::vector<size_t> sizes;
  for (uint32_t p = 0; p < requirements.pool_count; ++p) {
    pools.emplace_back(requirements.pool_bytes[p]);
    pointers.push_back(pools.back().data());
    sizes.push_back(requirements.pool_bytes[p]);
  }
  Registry registry;
  grt_options options{};
  options.registry = &registry.registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pointers.data();
  options.memory.pool_sizes = sizes.data();
  options.memory.pool_count = requirements.pool_count;
  grt_executor* executor = nullptr;
  result.status = grt_init(&executor, storage.data(), storage.size(), model, size, &options, &error);
  if (result.status != GRT_OK) {
    result.message = error.message;
    return result;
  }
  DLTensor* input = grt_input(executor, 0);
  std::memset(input->data, fill, grt_tensor_bytes(input));
  result.status = grt_run(executor);
  if (result.status == GRT_OK) {
    const DLTensor* output = grt_output(executor, 0);
    const auto* p = static_cast<const uint8_t*>(output->data);
    result.output.assign(p, p + grt_tensor_bytes(output));
  } else {
    result.message = grt_last_error(executor)->message;
  }
  grt_release(executor);
  return result;
}

std::vector<uint8_t> small_model(int copies, int64_t n) { return tools::serialize(copy_chain(copies, n)); }

std::vector<uint8_t> large_model(size_t constant_bytes) {
  tools::ModelDef model = copy_chain(3, 16);
  std::vector<uint8_t> weights(constant_bytes);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<uint8_t>(i * 131 + (i >> 8));
  model.add_constant("weights", tools::DType::Int8, {static_cast<int64_t>(constant_bytes)}, std::move(weights));
  return tools::serialize(model);
}

}  // namespace grt::test
