/* graphrt's blob integrity API (C99): check a signed envelope before a single offset of the
 * model inside it is trusted, then hand the model bytes to grt_model_requirements/grt_init.
 *
 *   static const grt_trusted_key keys[] = {{"prod-1", prod1_der, sizeof prod1_der}};
 *   static const grt_trust_config trust = {keys, 1, 1, 5}; (keys, count, require sig, min version)
 *   const void* model; size_t model_size;
 *   if (grt_envelope_open(flash_blob, flash_blob_size, &trust, &model, &model_size, NULL, &err))
 *     ... refuse: err.message says which key and what failed ...
 *   grt_init(&exec, storage, sizeof storage, model, model_size, &options, &err);
 *
 * Envelope layout (version 1, all integers little-endian, 176 bytes, see docs/security.md):
 *     0  char     magic[4]          "GRTE"
 *     4  uint16   header_version     1
 *     6  uint16   header_size        176
 *     8  uint32   model_offset       multiple of 16, >= header_size; zero padding before it
 *    12  uint32   flags              0 (reserved)
 *    16  uint64   model_size         > 0
 *    24  uint64   model_version      monotonic, for anti-rollback
 *    32  char     key_id[32]         printable ASCII, NUL-padded; empty when unsigned
 *    64  uint8    sha256[32]         SHA-256 of bytes [0, 64) then [176, model_offset + model_size)
 *    96  uint16   signature_size     0 (unsigned) .. 72
 *    98  uint8    signature[72]      ECDSA P-256 over sha256, DER; unused bytes zero
 *   170  uint8    reserved[6]        0
 * The digest covers every header field that carries meaning (version, key id, sizes), the
 * padding and the model, so none of them can be swapped without breaking the signature.
 *
 * Nothing here calls malloc. mbedTLS's bignum code does allocate, through mbedtls_calloc,
 * during signature verification (a few KiB, freed before return): see docs/security.md
 * for the device configuration. */
#ifndef GRAPHRT_INTEGRITY_H_
#define GRAPHRT_INTEGRITY_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_ENVELOPE_MAGIC "GRTE"
#define GRT_ENVELOPE_HEADER_VERSION 1
#define GRT_ENVELOPE_HEADER_SIZE 176
#define GRT_ENVELOPE_MODEL_ALIGNMENT 16
#define GRT_ENVELOPE_KEY_ID_SIZE 32 /* field size; an id has at most 31 characters */
#define GRT_ENVELOPE_DIGEST_SIZE 32
#define GRT_ENVELOPE_SIGNATURE_MAX 72 /* the longest DER ECDSA P-256 signature */

/* Building firmware with -DGRT_INTEGRITY_REQUIRE_SIGNATURE=1 makes every envelope need a
 * valid signature, whatever a trust configuration says. */
#ifndef GRT_INTEGRITY_REQUIRE_SIGNATURE
#define GRT_INTEGRITY_REQUIRE_SIGNATURE 0
#endif

/* A public key the firmware trusts, usually a const array in flash. */
typedef struct grt_trusted_key {
  const char* key_id;            /* matches the envelope's key_id exactly */
  const uint8_t* public_key_der; /* SubjectPublicKeyInfo of a P-256 key (91 bytes) */
  size_t public_key_der_size;
} grt_trusted_key;

typedef struct grt_trust_config {
  const grt_trusted_key* keys;
  size_t key_count;
  /* Non-zero: an envelope without a signature is refused. A signature that is present is
   * always checked, and one by a key not in `keys` is always refused. */
  int require_signature;
  /* Anti-rollback: envelopes whose model_version is lower are refused. */
  uint64_t minimum_model_version;
} grt_trust_config;

/* What a checked envelope said. */
typedef struct grt_envelope_info {
  uint64_t model_version;
  uint64_t model_offset; /* from the envelope's first byte */
  uint64_t model_size;
  uint64_t envelope_size; /* model_offset + model_size */
  char key_id[GRT_ENVELOPE_KEY_ID_SIZE]; /* NUL-terminated; empty when unsigned */
  int signature_verified; /* non-zero when a signature was present and verified */
} grt_envelope_info;

/* Checks an envelope held in (memory-mapped) memory and yields the model inside it. Checks,
 * in order: header structure, key id known, signature present when required, model version
 * not below the minimum, size (exactly model_offset + model_size bytes), digest, signature.
 * trust may be NULL: no keys, digest only. info may be NULL. The model is as aligned as the
 * envelope plus 16 (grt_init wants 16). On failure *model is NULL. */
grt_status grt_envelope_open(const void* envelope, size_t envelope_size, const grt_trust_config* trust,
                             const void** model, size_t* model_size, grt_envelope_info* info, grt_error* error);

/* Reads just the header (the first GRT_ENVELOPE_HEADER_SIZE bytes) and checks its
 * structure, e.g. to learn envelope_size before reading a flash partition. Trusts nothing:
 * the digest and signature are not checked. */
grt_status grt_envelope_peek(const void* header, size_t header_size, grt_envelope_info* info, grt_error* error);

/* The streaming form, for an envelope in external flash: feed it in chunks of any size, in
 * order, without a copy in RAM. The same checks in the same order as grt_envelope_open, so
 * the verdict does not depend on the chunking: header checks as soon as the header is in
 * (update fails early), digest and signature at finish. After a failure every later call
 * returns the same status and message. The stream holds no pointers into the chunks; trust
 * must outlive it. If the model is then read from the flash again to run it, an attacker
 * who can write that flash in between defeats the check: load what was verified. */
#define GRT_ENVELOPE_STREAM_SIZE 640
typedef struct grt_envelope_stream {
  union {
    uint64_t align;
    void* pointer;
    unsigned char bytes[GRT_ENVELOPE_STREAM_SIZE];
  } opaque;
} grt_envelope_stream;

grt_status grt_envelope_stream_init(grt_envelope_stream* stream, const grt_trust_config* trust, grt_error* error);
grt_status grt_envelope_stream_update(grt_envelope_stream* stream, const void* chunk, size_t size, grt_error* error);
/* The verdict. info may be NULL. Releases nothing: the stream may simply be dropped. */
grt_status grt_envelope_stream_finish(grt_envelope_stream* stream, grt_envelope_info* info, grt_error* error);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_INTEGRITY_H_ */
