// An evaluation server under qemu: starts qemu-system-arm with the server image, its UART on
// a Unix socket in a private temporary folder (nothing listens on the network), connects,
// and stops qemu when done.
#ifndef GRAPHRT_TOOLS_DEVICE_QEMU_DEVICE_H_
#define GRAPHRT_TOOLS_DEVICE_QEMU_DEVICE_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>

#include "link.h"

namespace grt::device {

struct QemuOptions {
  std::string machine = "mps2-an386";
  std::string firmware;       // the graphrt-eval-server image (.elf)
  std::string qemu = "qemu-system-arm";  // or $GRT_QEMU
  std::chrono::milliseconds start_timeout{10000};
};

class QemuDevice {
 public:
  QemuDevice() = default;
  ~QemuDevice() { stop(); }
  QemuDevice(const QemuDevice&) = delete;
  QemuDevice& operator=(const QemuDevice&) = delete;

  bool start(const QemuOptions& options, std::string* error);
  Link* link() { return link_.get(); }
  pid_t pid() const { return pid_; }
  // Whether qemu is gone (waiting up to `grace` for it to end), and if so, how it ended
  // ("exited with status 1", "killed by signal 9").
  bool exited(std::string* how, std::chrono::milliseconds grace = std::chrono::milliseconds(0));
  // Ends qemu (SIGTERM, then SIGKILL after a second) and removes the socket's folder.
  void stop();
  // The last lines qemu wrote on stderr (its log file), for error messages.
  std::string log_tail() const;

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  std::string folder_;
  std::unique_ptr<Link> link_;
};

// The preset whose build holds the server image for a qemu machine (mps2-an386: "cortex-m4"),
// or "" for a machine `--qemu` does not know.
std::string qemu_machine_preset(const std::string& machine);
// The machines `--qemu` knows, for messages: "mps2-an385, mps2-an386, mps2-an500, mps2-an505".
std::string qemu_machine_list();

// Where the server image is when no --firmware is given: beside the host build, in the
// machine's preset's build (build/cortex-m4/integrations/eval_server/firmware/graphrt-eval-server.elf).
std::string default_firmware_path(const std::string& machine);

}  // namespace grt::device

#endif  // GRAPHRT_TOOLS_DEVICE_QEMU_DEVICE_H_
