#include "format.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace grt::cli {

std::string format_bytes(uint64_t bytes) {
  std::string text = std::to_string(bytes) + " B";
  char reading[32] = "";
  if (bytes >= (uint64_t{1} << 30)) {
    std::snprintf(reading, sizeof reading, " (%.1f GiB)", static_cast<double>(bytes) / (1 << 30));
  } else if (bytes >= (uint64_t{1} << 20)) {
    std::snprintf(reading, sizeof reading, " (%.1f MiB)", static_cast<double>(bytes) / (1 << 20));
  } else if (bytes >= 1024) {
    std::snprintf(reading, sizeof reading, " (%.1f KiB)", static_cast<double>(bytes) / 1024);
  }
  return text + reading;
}

std::string format_duration(double nanoseconds) {
  char text[32];
  if (nanoseconds < 1e3) {
    std::snprintf(text, sizeof text, "%.0f ns", nanoseconds);
  } else if (nanoseconds < 1e6) {
    std::snprintf(text, sizeof text, "%.3g us", nanoseconds / 1e3);
  } else if (nanoseconds < 1e9) {
    std::snprintf(text, sizeof text, "%.3g ms", nanoseconds / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.3g s", nanoseconds / 1e9);
  }
  return text;
}

std::string format_shape(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  return text + "]";
}

std::string format_dtype(DLDataType dtype) {
  // graphrt's bool is TVM's: uint1 stored one byte per element.
  if (dtype.code == kDLUInt && dtype.bits == 1) return "bool";
  const char* family = nullptr;
  switch (dtype.code) {
    case kDLInt: family = "int"; break;
    case kDLUInt: family = "uint"; break;
    case kDLFloat: family = "float"; break;
    default: return std::to_string(dtype.code) + ":" + std::to_string(dtype.bits);
  }
  return family + std::to_string(dtype.bits);
}

namespace {

// One element at `p`, which may be unaligned: memcpy is the portable read.
std::string format_element(const uint8_t* p, DLDataType dtype) {
  char text[40];
  const auto read = [p](auto value) {
    std::memcpy(&value, p, sizeof value);
    return value;
  };
  if (dtype.code == kDLFloat && dtype.bits == 32) {
    std::snprintf(text, sizeof text, "%g", static_cast<double>(read(float{})));
  } else if (dtype.code == kDLFloat && dtype.bits == 64) {
    std::snprintf(text, sizeof text, "%g", read(double{}));
  } else if (dtype.code == kDLInt) {
    int64_t v = 0;
    switch (dtype.bits) {
      case 8: v = read(int8_t{}); break;
      case 16: v = read(int16_t{}); break;
      case 32: v = read(int32_t{}); break;
      default: v = read(int64_t{}); break;
    }
    std::snprintf(text, sizeof text, "%" PRId64, v);
  } else {
    uint64_t v = 0;
    switch (dtype.bits) {
      case 1:
      case 8: v = read(uint8_t{}); break;
      case 16: v = read(uint16_t{}); break;
      case 32: v = read(uint32_t{}); break;
      default: v = read(uint64_t{}); break;
    }
    std::snprintf(text, sizeof text, "%" PRIu64, v);
  }
  return text;
}

}  // namespace

std::string format_values(const void* data, size_t bytes, DLDataType dtype, size_t limit) {
  const size_t element_bytes = std::max<size_t>(1, (static_cast<size_t>(dtype.bits) * dtype.lanes + 7) / 8);
  const bool decodable = dtype.lanes == 1 && (dtype.bits == 1 || dtype.bits == 8 || dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64);
  const size_t count = bytes / element_bytes;
  const auto* p = static_cast<const uint8_t*>(data);
  std::string text;
  const size_t shown = std::min(count, limit);
  for (size_t i = 0; i < shown; ++i) {
    if (i != 0) text += ' ';
    if (decodable) {
      text += format_element(p + i * element_bytes, dtype);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%02x", p[i]);
      text += hex;
    }
  }
  if (count > shown) text += " ... (" + std::to_string(count) + " values)";
  return text;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace grt::cli
