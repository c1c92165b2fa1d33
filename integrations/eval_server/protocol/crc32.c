#include "crc32.h"

/* The CRC of each 4-bit value, for the reflected polynomial: entry i is i shifted right
 * through the polynomial four times. */
static const uint32_t kNibbleCrc[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t grt_eval_crc32(uint32_t crc, const void* bytes, size_t size) {
  const uint8_t* p = (const uint8_t*)bytes;
  crc = ~crc;
  for (size_t i = 0; i < size; ++i) {
    crc ^= p[i];
    crc = (crc >> 4) ^ kNibbleCrc[crc & 0xFu];
    crc = (crc >> 4) ^ kNibbleCrc[crc & 0xFu];
  }
  return ~crc;
}
