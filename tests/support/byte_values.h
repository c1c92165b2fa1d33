// Typed values as raw tensor bytes and back, for tests that feed and read tensors.
#ifndef GRAPHRT_TESTS_SUPPORT_BYTE_VALUES_H_
#define GRAPHRT_TESTS_SUPPORT_BYTE_VALUES_H_

#include <cstdint>
#include <cstring>
#include <vector>

namespace grt::test {

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_SUPPORT_BYTE_VALUES_H_
