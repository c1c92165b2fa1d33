// The first look at a blob: its size, alignment and identifier, its schema version (a newer
// major version is refused by name), then FlatBuffers' verifier. Nothing reads an offset of
// the blob before this passes.
#include <string.h>

#include "message.h"
#include "model_check.h"

namespace grt {
namespace {

constexpr char kEnvelopeMagic[4] = {'G', 'R', 'T', 'E'};

grt_status check_version_only(const uint8_t* bytes, size_t size, grt_error* error) {
  // A newer major version may not verify against this schema: read just the version so
  // the user is told the real reason.
  flatbuffers::Verifier verifier(bytes, size);
  if (verifier.VerifyOffset(0) == 0) return GRT_OK;
  const auto* model = flatbuffers::GetRoot<fb::Model>(bytes);
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(model);
  if (!table->VerifyTableStart(verifier) ||
      !table->VerifyField<uint16_t>(verifier, fb::Model::VT_VERSION_MAJOR, 2) ||
      !table->VerifyField<uint16_t>(verifier, fb::Model::VT_VERSION_MINOR, 2)) {
    return GRT_OK;
  }
  if (model->version_major() != GRT_SCHEMA_VERSION_MAJOR) {
    return fail(error, GRT_ERR_BLOB_VERSION, nullptr, "blob schema version %u.%u is not supported: this runtime reads version %u.x",
                model->version_major(), model->version_minor(), GRT_SCHEMA_VERSION_MAJOR);
  }
  return GRT_OK;
}


}  // namespace

grt_status open_model(const void* blob, size_t blob_size, const fb::Model** model, grt_error* error) {
  clear_error(error);
  if (blob == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "blob is NULL");
  const auto* bytes = static_cast<const uint8_t*>(blob);
  if (blob_size < 8) {
    return fail(error, GRT_ERR_BLOB_TOO_SMALL, nullptr, "blob has %u bytes, fewer than any model can have", blob_size);
  }
  const uintptr_t misalignment = reinterpret_cast<uintptr_t>(blob) % GRT_BLOB_ALIGNMENT;
  if (misalignment != 0) {
    return fail(error, GRT_ERR_BLOB_ALIGNMENT, nullptr, "blob must start on a 16-byte boundary (address mod 16 is %u)", misalignment);
  }
  if (blob_size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return fail(error, GRT_ERR_BLOB_MALFORMED, nullptr, "blob of %u bytes is larger than a model can be", blob_size);
  }
  if (memcmp(bytes, kEnvelopeMagic, 4) == 0) {
    return fail(error, GRT_ERR_INTEGRITY, nullptr, "blob is a signed envelope; open it with the integrity API");
  }
  if (!fb::ModelBufferHasIdentifier(bytes)) {
    char id[5] = {};
    for (int i = 0; i < 4; ++i) id[i] = (bytes[4 + i] >= 0x20 && bytes[4 + i] < 0x7f) ? static_cast<char>(bytes[4 + i]) : '?';
    return fail(error, GRT_ERR_BLOB_IDENTIFIER, nullptr, "not a graphrt model: file identifier is %q, expected %q",
                static_cast<const char*>(id), fb::ModelIdentifier());
  }
  const grt_status version = check_version_only(bytes, blob_size, error);
  if (version != GRT_OK) return version;
  flatbuffers::Verifier verifier(bytes, blob_size);
  if (!fb::VerifyModelBuffer(verifier)) {
    return fail(error, GRT_ERR_BLOB_MALFORMED, nullptr, "blob of %u bytes is malformed: FlatBuffers' verifier refused it", blob_size);
  }
  *model = fb::GetModel(bytes);
  return GRT_OK;
}

}  // namespace grt
