#include "random_source.h"

#include <cstdio>

#include "mbedtls/error.h"

namespace grt::signing {

RandomSource::RandomSource() {
  mbedtls_entropy_init(&entropy_);
  mbedtls_ctr_drbg_init(&drbg_);
}

RandomSource::~RandomSource() {
  mbedtls_ctr_drbg_free(&drbg_);
  mbedtls_entropy_free(&entropy_);
}

bool RandomSource::seed(std::string* error) {
  static constexpr unsigned char kPersonalization[] = "graphrt signing";
  const int rc = mbedtls_ctr_drbg_seed(&drbg_, mbedtls_entropy_func, &entropy_, kPersonalization, sizeof kPersonalization - 1);
  if (rc != 0) *error = "cannot seed the random generator: " + mbedtls_error_text(rc);
  return rc == 0;
}

int RandomSource::generate(void* self, unsigned char* out, size_t size) { return mbedtls_ctr_drbg_random(self, out, size); }

std::string mbedtls_error_text(int code) {
  char text[160];
  mbedtls_strerror(code, text, sizeof text);
  char number[16];
  std::snprintf(number, sizeof number, "-0x%04x", static_cast<unsigned>(-code));
  return std::string("mbedTLS: ") + text + " (" + number + ")";
}

}  // namespace grt::signing
