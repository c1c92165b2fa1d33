// Bytes on a 16-byte boundary, as graphrt loads blobs and pools in place.
#ifndef GRAPHRT_TOOLS_ALIGNED_BYTES_H_
#define GRAPHRT_TOOLS_ALIGNED_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace grt::tools {

class AlignedBytes {
 public:
  static constexpr size_t kAlignment = 64;

  AlignedBytes() = default;
  explicit AlignedBytes(size_t size) { resize(size); }
  explicit AlignedBytes(const std::vector<uint8_t>& bytes) {
    resize(bytes.size());
    if (!bytes.empty()) std::memcpy(data_.get(), bytes.data(), bytes.size());
  }

  void resize(size_t size) {
    data_.reset(static_cast<uint8_t*>(::operator new(size == 0 ? 1 : size, std::align_val_t{kAlignment})));
    std::memset(data_.get(), 0, size == 0 ? 1 : size);
    size_ = size;
  }
  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { ::operator delete(p, std::align_val_t{kAlignment}); }
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t size_ = 0;
};

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_ALIGNED_BYTES_H_
