/* Firmware for the signed path: the model arrives in a signed envelope (graphrt sign) and is
 * trusted only after its ECDSA P-256 signature verifies with the key compiled in. Then a
 * copy with one model byte flipped, and one with one signature byte flipped, must both be
 * refused. Exit code 0 only when all three verdicts are right and the verified model's
 * golden cases pass. */
#include <stdint.h>
#include <string.h>

#include "console.h"
#include "fw_envelope.h"
#include "fw_trusted_key.h"
#include "golden_runner.h"
#include "graphrt/integrity.h"
#include "graphrt/platform.h"
#include "mbedtls/memory_buffer_alloc.h"
#include "stack_report.h"
#include "stack_usage.h"

/* Must match the key id and model version the build signed with (tests/target/CMakeLists.txt). */
#define FW_KEY_ID "graphrt-ci"
#define FW_MINIMUM_MODEL_VERSION 7u

/* mbedTLS's bignum code allocates through mbedtls_calloc while verifying; this static arena
 * is the only heap in any graphrt firmware, and it is idle outside grt_envelope_open. */
static unsigned char mbedtls_arena[6144] __attribute__((aligned(8)));
/* A RAM copy of the envelope, where tampering happens. */
static unsigned char envelope_copy[FW_ENVELOPE_SIZE] __attribute__((aligned(16)));

static const grt_trusted_key kKeys[] = {{FW_KEY_ID, fw_trusted_key, FW_TRUSTED_KEY_SIZE}};
static const grt_trust_config kTrust = {kKeys, 1, 1, FW_MINIMUM_MODEL_VERSION};

/* Opens an envelope, prints the verdict, returns 1 when the status is the expected one. */
static int expect_verdict(const char* what, const unsigned char* envelope, grt_status expected,
                          const void** model, size_t* model_size, grt_envelope_info* info) {
  grt_error error;
  memset(&error, 0, sizeof error);
  const uint64_t start = grt_platform_ticks();
  const grt_status status = grt_envelope_open(envelope, FW_ENVELOPE_SIZE, &kTrust, model, model_size, info, &error);
  const uint32_t instructions = (uint32_t)((grt_platform_ticks() - start) * FW_INSTRUCTIONS_PER_TICK);
  const int right = status == expected;
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, what);
  fw_line_text(&line, ": ");
  fw_line_text(&line, grt_status_name(status));
  if (status != GRT_OK) {
    fw_line_text(&line, " (");
    fw_line_text(&line, error.message);
    fw_line_text(&line, ")");
  }
  fw_line_text(&line, ", ");
  fw_line_u32(&line, instructions);
  fw_line_text(&line, " instructions, ");
  fw_line_text(&line, right ? "right" : "WRONG, expected ");
  if (!right) fw_line_text(&line, grt_status_name(expected));
  fw_line_end(&line);
  return right;
}

int main(void) {
  grt_cortex_m_stack_paint();
  mbedtls_memory_buffer_alloc_init(mbedtls_arena, sizeof mbedtls_arena);

  unsigned wrong = 0;
  const void* model = NULL;
  size_t model_size = 0;
  grt_envelope_info info;
  memset(&info, 0, sizeof info);
  if (!expect_verdict("genuine envelope in flash", fw_envelope, GRT_OK, &model, &model_size, &info) ||
      !info.signature_verified) {
    ++wrong;
  }

  /* One flipped bit in the middle of the model: the digest no longer matches. */
  const void* refused_model = NULL;
  size_t refused_size = 0;
  memcpy(envelope_copy, fw_envelope, FW_ENVELOPE_SIZE);
  envelope_copy[info.model_offset + info.model_size / 2] ^= 0x01u;
  if (!expect_verdict("model byte flipped in RAM", envelope_copy, GRT_ERR_DIGEST_MISMATCH, &refused_model,
                      &refused_size, NULL) ||
      refused_model != NULL) {
    ++wrong;
  }

  /* One flipped bit inside the signature's r value (DER: 30 len 02 len r...). */
  enum { kSignatureOffset = 98, kInsideR = 8 };
  memcpy(envelope_copy, fw_envelope, FW_ENVELOPE_SIZE);
  envelope_copy[kSignatureOffset + kInsideR] ^= 0x01u;
  if (!expect_verdict("signature byte flipped in RAM", envelope_copy, GRT_ERR_SIGNATURE_INVALID, &refused_model,
                      &refused_size, NULL) ||
      refused_model != NULL) {
    ++wrong;
  }

  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, wrong == 0 ? "PASS all 3 envelope verdicts right" : "FAIL envelope verdicts wrong: ");
  if (wrong != 0) fw_line_u32(&line, wrong);
  fw_line_end(&line);

  /* Run only what was verified. */
  const unsigned failures = model != NULL ? fw_run_golden_cases(&fw_golden, model, model_size) : 1u;
  fw_report_stack();
  return wrong == 0 && failures == 0 ? 0 : 1;
}
