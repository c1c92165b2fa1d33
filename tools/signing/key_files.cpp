// Private keys are written readable by their owner only, and never over an existing file:
// losing a release key to a typo is worse than a refused command.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "graphrt/tools/signing.h"

namespace grt::signing {

bool write_private_key_file(const std::string& path, std::string_view pem, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    *error = path + ": cannot create (" + std::strerror(errno) + ")" + (errno == EEXIST ? "; not overwriting a key" : "");
    return false;
  }
  size_t written = 0;
  while (written < pem.size()) {
    const ssize_t n = ::write(fd, pem.data() + written, pem.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = path + ": cannot write (" + std::strerror(errno) + ")";
      ::close(fd);
      ::unlink(path.c_str());
      return false;
    }
    written += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    *error = path + ": cannot write (" + std::strerror(errno) + ")";
    ::unlink(path.c_str());
    return false;
  }
  return true;
}

}  // namespace grt::signing
