/* mbedTLS configuration for graphrt firmware: what the envelope check needs (SHA-256, ASN.1
 * parsing, ECDSA P-256 verification) and nothing else. No entropy, DRBG, pk, X.509 or TLS.
 * Bignum limbs come from a static arena (memory_buffer_alloc) the firmware hands over at
 * boot; without it mbedtls_calloc returns NULL and every check fails closed. */
#ifndef GRAPHRT_MBEDTLS_CONFIG_H_
#define GRAPHRT_MBEDTLS_CONFIG_H_

#define MBEDTLS_HAVE_ASM /* Thumb-2 multiply-accumulate in bignum */

#define MBEDTLS_SHA256_C
#define MBEDTLS_ASN1_PARSE_C
#define MBEDTLS_ASN1_WRITE_C /* MBEDTLS_ECDSA_C's prerequisite */
#define MBEDTLS_BIGNUM_C
#define MBEDTLS_ECP_C
#define MBEDTLS_ECP_DP_SECP256R1_ENABLED
#define MBEDTLS_ECP_NIST_OPTIM
#define MBEDTLS_ECP_NO_INTERNAL_RNG /* verification handles public values only: no blinding RNG */
#define MBEDTLS_ECDSA_C

/* Memory: the static arena is the only allocator; libc's calloc/free are never linked. */
#define MBEDTLS_PLATFORM_C
#define MBEDTLS_PLATFORM_MEMORY
#define MBEDTLS_PLATFORM_NO_STD_FUNCTIONS
#define MBEDTLS_MEMORY_BUFFER_ALLOC_C

/* Less RAM for point multiplication (verification only needs a few KiB of limbs). */
#define MBEDTLS_ECP_WINDOW_SIZE 2
#define MBEDTLS_ECP_FIXED_POINT_OPTIM 0
#define MBEDTLS_MPI_MAX_SIZE 32

#include "mbedtls/check_config.h"

#endif /* GRAPHRT_MBEDTLS_CONFIG_H_ */
