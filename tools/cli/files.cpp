#include "files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace grt::cli {
namespace {

bool failure(const std::string& path, const char* what, int error_number, std::string* error) {
  *error = path + ": " + what + " (" + std::strerror(error_number) + ")";
  return false;
}

}  // namespace

bool read_file(const std::string& path, uint64_t max_bytes, tools::AlignedBytes* out, std::string* error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return failure(path, "cannot read", EISDIR, error);
  const auto too_large = [&] {
    *error = path + ": more than " + std::to_string(max_bytes) + " bytes, the input limit (raise it with --max-input-bytes)";
    return false;
  };
  // A regular file says its size: refused without reading a byte. Devices and pipes do not,
  // and are read until they end or pass the limit.
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > max_bytes && !ec) return too_large();
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return failure(path, "cannot open", errno, error);
  std::string bytes;
  char chunk[65536];
  size_t got = 0;
  bool past_limit = false;
  while ((got = std::fread(chunk, 1, sizeof chunk, file)) != 0) {
    if (got > max_bytes - bytes.size()) {
      past_limit = true;
      break;
    }
    bytes.append(chunk, got);
  }
  const bool read_error = !past_limit && std::ferror(file) != 0;
  const int read_errno = errno;
  std::fclose(file);
  if (read_error) return failure(path, "cannot read", read_errno, error);
  if (past_limit) return too_large();
  out->resize(bytes.size());
  if (!bytes.empty()) std::memcpy(out->data(), bytes.data(), bytes.size());
  return true;
}

bool write_file(const std::string& path, const void* data, size_t size, std::string* error) {
  // Devices and pipes (-o /dev/stdout) cannot be renamed over: write to them directly.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  const bool special = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  const std::string temporary = special ? path : path + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return failure(path, "cannot create", errno, error);
  const bool written = size == 0 || std::fwrite(data, 1, size, file) == size;
  const int write_errno = errno;
  if (std::fclose(file) != 0 || !written) {
    const int close_errno = written ? errno : write_errno;
    if (!special) std::remove(temporary.c_str());
    return failure(path, "cannot write", close_errno, error);
  }
  if (special) return true;
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temporary.c_str());
    return failure(path, "cannot write", rename_errno, error);
  }
  return true;
}

}  // namespace grt::cli
