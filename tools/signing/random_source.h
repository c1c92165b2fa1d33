// A CTR-DRBG seeded from the system's entropy, for key generation and ECDSA blinding.
#ifndef GRAPHRT_TOOLS_SIGNING_RANDOM_SOURCE_H_
#define GRAPHRT_TOOLS_SIGNING_RANDOM_SOURCE_H_

#include <string>

#include "mbedtls/ctr_drbg.h"
#include "mbedtls/entropy.h"

namespace grt::signing {

class RandomSource {
 public:
  RandomSource();
  ~RandomSource();
  RandomSource(const RandomSource&) = delete;
  RandomSource& operator=(const RandomSource&) = delete;
  // Seeds from the system's entropy; false with the reason when it cannot.
  bool seed(std::string* error);
  // For mbedTLS's f_rng / p_rng arguments.
  static int generate(void* self, unsigned char* out, size_t size);
  void* context() { return &drbg_; }

 private:
  mbedtls_entropy_context entropy_;
  mbedtls_ctr_drbg_context drbg_;
};

// "mbedTLS: <what mbedTLS says> (-0x4280)".
std::string mbedtls_error_text(int code);

}  // namespace grt::signing

#endif  // GRAPHRT_TOOLS_SIGNING_RANDOM_SOURCE_H_
