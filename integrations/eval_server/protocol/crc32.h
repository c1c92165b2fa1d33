/* CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF),
 * the checksum of every evaluation-protocol frame. A 16-entry table (64 bytes of flash):
 * two table steps per byte instead of eight bit steps. crc32("123456789") = 0xCBF43926. */
#ifndef GRAPHRT_EVAL_CRC32_H_
#define GRAPHRT_EVAL_CRC32_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Continues a CRC over more bytes: start with crc = 0, pass the previous result to go on. */
uint32_t grt_eval_crc32(uint32_t crc, const void* bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_EVAL_CRC32_H_ */
