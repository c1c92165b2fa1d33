// A byte link to an evaluation server: a serial port, qemu's socket, or (in tests) a server
// running in the same process. Every wait has a deadline.
#ifndef GRAPHRT_TOOLS_DEVICE_LINK_H_
#define GRAPHRT_TOOLS_DEVICE_LINK_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace grt::device {

class Link {
 public:
  virtual ~Link() = default;
  // Sends every byte or fails with a one-line reason.
  virtual bool send(const uint8_t* bytes, size_t size, std::string* error) = 0;
  // Waits up to `timeout` for bytes. Returns how many arrived (> 0), 0 when none did in
  // time, -1 when the link is closed or broken (*error says how).
  virtual long receive(uint8_t* bytes, size_t capacity, std::chrono::milliseconds timeout, std::string* error) = 0;
};

// A link over a file descriptor it owns (a serial port or a connected socket).
class FdLink : public Link {
 public:
  FdLink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  ~FdLink() override;
  FdLink(const FdLink&) = delete;
  FdLink& operator=(const FdLink&) = delete;
  bool send(const uint8_t* bytes, size_t size, std::string* error) override;
  long receive(uint8_t* bytes, size_t capacity, std::chrono::milliseconds timeout, std::string* error) override;

 private:
  int fd_;
  std::string name_;
};

// Opens a serial port raw (8N1, no flow control) at `baud`. nullptr with *error on failure.
std::unique_ptr<Link> open_serial_port(const std::string& path, uint32_t baud, std::string* error);

}  // namespace grt::device

#endif  // GRAPHRT_TOOLS_DEVICE_LINK_H_
