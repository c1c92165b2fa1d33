#include "link.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace grt::device {

FdLink::~FdLink() {
  if (fd_ >= 0) ::close(fd_);
}

bool FdLink::send(const uint8_t* bytes, size_t size, std::string* error) {
  size_t sent = 0;
  while (sent < size) {
    // A socket whose peer died (qemu killed) must give EPIPE here, not SIGPIPE to the process.
    ssize_t n = ::send(fd_, bytes + sent, size - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd_, bytes + sent, size - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, 10000) <= 0) {
        *error = name_ + ": the device takes no more bytes (10 s)";
        return false;
      }
      continue;
    }
    if (n <= 0) {
      *error = name_ + ": the link closed while sending (" + std::strerror(errno) + ")";
      return false;
    }
    sent += static_cast<size_t>(n);
  }
  return true;
}

long FdLink::receive(uint8_t* bytes, size_t capacity, std::chrono::milliseconds timeout, std::string* error) {
  pollfd p{fd_, POLLIN, 0};
  int ready;
  do {
    ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (ready < 0 && errno == EINTR);
  if (ready < 0) {
    *error = name_ + ": " + std::strerror(errno);
    return -1;
  }
  if (ready == 0) return 0;
  const ssize_t n = ::read(fd_, bytes, capacity);
  if (n > 0) return static_cast<long>(n);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
  *error = name_ + ": the link closed" + (n < 0 ? std::string(" (") + std::strerror(errno) + ")" : std::string());
  return -1;
}

namespace {

speed_t baud_constant(uint32_t baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
    default: return 0;
  }
}

}  // namespace

std::unique_ptr<Link> open_serial_port(const std::string& path, uint32_t baud, std::string* error) {
  const speed_t speed = baud_constant(baud);
  if (speed == 0) {
    *error = "baud rate " + std::to_string(baud) + " is not one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000, 2000000";
    return nullptr;
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": cannot open (" + std::strerror(errno) + ")";
    return nullptr;
  }
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) {
    *error = path + ": not a serial port (" + std::strerror(errno) + ")";
    ::close(fd);
    return nullptr;
  }
  ::cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | CRTSCTS);
  ::cfsetispeed(&tio, speed);
  ::cfsetospeed(&tio, speed);
  if (::tcsetattr(fd, TCSANOW, &tio) != 0) {
    *error = path + ": cannot configure (" + std::strerror(errno) + ")";
    ::close(fd);
    return nullptr;
  }
  ::tcflush(fd, TCIOFLUSH);
  return std::make_unique<FdLink>(fd, path);
}

}  // namespace grt::device
