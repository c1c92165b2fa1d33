// The NDArray list format, little-endian throughout (TVM's runtime/ndarray.h SaveDLTensor and
// the graph executor's param loader):
//   u64 list magic, u64 reserved, u64 name count, names (u64 length + bytes),
//   u64 array count, then per array: u64 array magic, u64 reserved, DLDevice (i32 type,
//   i32 id), i32 ndim, DLDataType (u8 code, u8 bits, u16 lanes), i64 shape[ndim],
//   i64 data bytes, the data.
#include "graphrt/tools/tvm/params.h"

#include <cstdio>
#include <cstring>

namespace grt::tools::tvm {
namespace {

constexpr uint64_t kListMagic = 0xF7E58D4F05049CB7ull;
constexpr uint64_t kArrayMagic = 0xDD5E40F096B4A13Full;
// More than any real model has; keeps a hostile count from reserving memory.
constexpr uint64_t kMaxParams = 1u << 20;
constexpr int32_t kMaxDims = 8;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  template <typename T>
  bool take(T* out) {
    if (size_ - at_ < sizeof(T)) return false;
    std::memcpy(out, data_ + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool take_bytes(uint64_t n, const uint8_t** out) {
    if (size_ - at_ < n) return false;
    *out = data_ + at_;
    at_ += static_cast<size_t>(n);
    return true;
  }
  size_t offset() const { return at_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

template <typename T>
void put(std::vector<uint8_t>* out, T value) {
  // resize + memcpy rather than insert: GCC 12 at -O3 flags the insert (-Wstringop-overflow).
  const size_t at = out->size();
  out->resize(at + sizeof(T));
  std::memcpy(out->data() + at, &value, sizeof(T));
}

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(v));
  return text;
}

bool read_array(Reader* in, Param* p, std::string* error) {
  const std::string where = "params: '" + p->name + "': ";
  uint64_t magic = 0, reserved = 0;
  int32_t device_type = 0, device_id = 0, ndim = 0;
  if (!in->take(&magic) || !in->take(&reserved) || !in->take(&device_type) || !in->take(&device_id) || !in->take(&ndim) ||
      !in->take(&p->dtype.code) || !in->take(&p->dtype.bits) || !in->take(&p->dtype.lanes)) {
    *error = where + "truncated array header";
    return false;
  }
  if (magic != kArrayMagic) {
    *error = where + "array magic is " + hex(magic) + ", expected " + hex(kArrayMagic);
    return false;
  }
  if (ndim < 0 || ndim > kMaxDims) {
    *error = where + std::to_string(ndim) + " dimensions (0 to " + std::to_string(kMaxDims) + " supported)";
    return false;
  }
  const uint8_t bits = p->dtype.bits;
  if (p->dtype.lanes != 1 || !(bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
    *error = where + "dtype of " + std::to_string(p->dtype.bits) + " bits x " + std::to_string(p->dtype.lanes) + " lanes is not supported";
    return false;
  }
  uint64_t elements = 1;
  for (int32_t d = 0; d < ndim; ++d) {
    int64_t dim = 0;
    if (!in->take(&dim)) {
      *error = where + "truncated shape";
      return false;
    }
    if (dim < 0 || (dim != 0 && elements > (uint64_t{1} << 40) / static_cast<uint64_t>(dim))) {
      *error = where + "dimension " + std::to_string(d) + " is " + std::to_string(dim);
      return false;
    }
    elements *= static_cast<uint64_t>(dim);
    p->shape.push_back(dim);
  }
  int64_t byte_size = 0;
  const uint8_t* bytes = nullptr;
  if (!in->take(&byte_size)) {
    *error = where + "truncated before its data size";
    return false;
  }
  // TVM stores a bool (1 bit) in a byte.
  const uint64_t expected = elements * ((bits + 7u) / 8u);
  if (byte_size < 0 || static_cast<uint64_t>(byte_size) != expected) {
    *error = where + "holds " + std::to_string(byte_size) + " data bytes, its dtype and shape make " + std::to_string(expected);
    return false;
  }
  if (!in->take_bytes(expected, &bytes)) {
    *error = where + "truncated data: " + std::to_string(expected) + " bytes expected";
    return false;
  }
  p->bytes.assign(bytes, bytes + expected);
  return true;
}

}  // namespace

bool read_params(const uint8_t* data, size_t size, std::vector<Param>* out, std::string* error) {
  out->clear();
  Reader in(data, size);
  uint64_t magic = 0, reserved = 0, names = 0;
  if (!in.take(&magic) || !in.take(&reserved) || !in.take(&names)) {
    *error = "params: truncated header (" + std::to_string(size) + " bytes)";
    return false;
  }
  if (magic != kListMagic) {
    *error = "params: magic is " + hex(magic) + ", expected " + hex(kListMagic) + " (TVM's NDArray list)";
    return false;
  }
  if (names > kMaxParams || names > size) {
    *error = "params: " + std::to_string(names) + " names is more than the file can hold";
    return false;
  }
  std::vector<Param> params(static_cast<size_t>(names));
  for (uint64_t i = 0; i < names; ++i) {
    uint64_t length = 0;
    const uint8_t* text = nullptr;
    if (!in.take(&length) || !in.take_bytes(length, &text)) {
      *error = "params: truncated name " + std::to_string(i);
      return false;
    }
    params[i].name.assign(reinterpret_cast<const char*>(text), static_cast<size_t>(length));
  }
  uint64_t arrays = 0;
  if (!in.take(&arrays)) {
    *error = "params: truncated before the array count";
    return false;
  }
  if (arrays != names) {
    *error = "params: " + std::to_string(names) + " names but " + std::to_string(arrays) + " arrays";
    return false;
  }
  for (Param& p : params) {
    if (!read_array(&in, &p, error)) return false;
  }
  if (in.offset() != size) {
    *error = "params: " + std::to_string(size - in.offset()) + " bytes after the last array";
    return false;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (params[i].name == params[j].name) {
        *error = "params: '" + params[i].name + "' appears twice";
        return false;
      }
    }
  }
  *out = std::move(params);
  return true;
}

std::vector<uint8_t> write_params(const std::vector<Param>& params) {
  std::vector<uint8_t> out;
  put<uint64_t>(&out, kListMagic);
  put<uint64_t>(&out, 0);
  put<uint64_t>(&out, params.size());
  for (const Param& p : params) {
    put<uint64_t>(&out, p.name.size());
    out.insert(out.end(), p.name.begin(), p.name.end());
  }
  put<uint64_t>(&out, params.size());
  for (const Param& p : params) {
    put<uint64_t>(&out, kArrayMagic);
    put<uint64_t>(&out, 0);
    put<int32_t>(&out, kDLCPU);
    put<int32_t>(&out, 0);
    put<int32_t>(&out, static_cast<int32_t>(p.shape.size()));
    put<uint8_t>(&out, p.dtype.code);
    put<uint8_t>(&out, p.dtype.bits);
    put<uint16_t>(&out, p.dtype.lanes);
    for (const int64_t d : p.shape) put<int64_t>(&out, d);
    put<int64_t>(&out, static_cast<int64_t>(p.bytes.size()));
    out.insert(out.end(), p.bytes.begin(), p.bytes.end());
  }
  return out;
}

}  // namespace grt::tools::tvm
