// An mbedTLS key context that frees itself, and the P-256 checks every caller repeats.
#ifndef GRAPHRT_TOOLS_SIGNING_PK_CONTEXT_H_
#define GRAPHRT_TOOLS_SIGNING_PK_CONTEXT_H_

#include <string>
#include <string_view>

#include "mbedtls/pk.h"

namespace grt::signing {

class PkContext {
 public:
  PkContext() { mbedtls_pk_init(&context_); }
  ~PkContext() { mbedtls_pk_free(&context_); }
  PkContext(const PkContext&) = delete;
  PkContext& operator=(const PkContext&) = delete;
  mbedtls_pk_context* get() { return &context_; }

  // A private key in PEM (or DER), which must be P-256.
  bool parse_private(std::string_view key, std::string* error);
  // A public key in PEM (or DER); a private key is accepted too, for its public half.
  bool parse_public_or_private(std::string_view key, std::string* error);

 private:
  bool require_p256(std::string* error);
  mbedtls_pk_context context_;
};

}  // namespace grt::signing

#endif  // GRAPHRT_TOOLS_SIGNING_PK_CONTEXT_H_
