// Host verification runs the device's own check, so `graphrt verify` says exactly what
// the firmware would.
#include <cstring>

#include "graphrt/graphrt.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/signing.h"

namespace grt::signing {
namespace {

std::string describe_key(const grt_envelope_info& info) {
  return info.key_id[0] == '\0' ? std::string("unsigned") : "key '" + std::string(info.key_id) + "'";
}

}  // namespace

VerifyReport verify_envelope(std::span<const uint8_t> envelope, const VerifyRequest& request) {
  VerifyReport report;
  grt_error error{};
  grt_envelope_info header{};
  report.status = grt_envelope_peek(envelope.data(), envelope.size(), &header, &error);
  if (report.status != GRT_OK) {
    report.message = error.message;
    return report;
  }
  report.info = header;
  report.checked.push_back("header: version " + std::to_string(GRT_ENVELOPE_HEADER_VERSION) + ", model " +
                           std::to_string(header.model_size) + " bytes at offset " + std::to_string(header.model_offset) +
                           ", model version " + std::to_string(header.model_version) + ", " + describe_key(header));

  std::vector<uint8_t> der;
  std::string why;
  if (!request.public_key_pem.empty() && !public_key_der(request.public_key_pem, &der, &why)) {
    report.status = GRT_ERR_KEY_INVALID;
    report.message = "public key: " + why;
    return report;
  }
  // The key is trusted under the id the caller expects, or else under the envelope's own.
  const std::string key_id = request.key_id.value_or(header.key_id);
  grt_trusted_key key{key_id.c_str(), der.data(), der.size()};
  grt_trust_config trust{};
  trust.keys = der.empty() ? nullptr : &key;
  trust.key_count = der.empty() ? 0 : 1;
  trust.require_signature = request.require_signature ? 1 : 0;
  trust.minimum_model_version = request.minimum_model_version;

  // The model is loaded in place, so give it the alignment firmware would.
  const tools::AlignedBytes aligned(std::vector<uint8_t>(envelope.begin(), envelope.end()));
  const void* model = nullptr;
  size_t model_size = 0;
  grt_envelope_info info{};
  report.status = grt_envelope_open(aligned.data(), aligned.size(), &trust, &model, &model_size, &info, &error);
  if (report.status != GRT_OK) {
    report.message = error.message;
    return report;
  }
  report.checked.push_back("size: " + std::to_string(info.envelope_size) + " bytes, as the header says");
  if (request.minimum_model_version != 0) {
    report.checked.push_back("model version " + std::to_string(info.model_version) + " >= minimum " +
                             std::to_string(request.minimum_model_version));
  }
  report.checked.push_back("digest: SHA-256 of header fields and model matches");
  if (info.signature_verified != 0) {
    report.checked.push_back("signature: ECDSA P-256 verifies with key '" + key_id + "'");
  } else {
    report.checked.push_back("signature: none (not required)");
  }

  grt_requirements requirements{};
  report.status = grt_model_requirements(model, model_size, GRT_STRATEGY_STATIC, &requirements, &error);
  if (report.status != GRT_OK) {
    report.message = std::string("the signed model does not load: ") + error.message;
    return report;
  }
  report.checked.push_back("model: passes the loader's checks (" + std::to_string(requirements.pool_count) + " pools)");
  return report;
}

}  // namespace grt::signing
