#include "qemu_device.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

namespace grt::device {
namespace {

// Connects to a Unix socket; -1 while nothing listens there yet.
int connect_unix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "stopped";
}

}  // namespace

namespace {
// Each qemu board with a graphrt preset: the core names the board (platform/cortex-m/boards.cmake).
struct QemuMachine {
  const char* machine;
  const char* preset;
};
constexpr QemuMachine kQemuMachines[] = {
    {"mps2-an385", "cortex-m3"}, {"mps2-an386", "cortex-m4"}, {"mps2-an500", "cortex-m7"}, {"mps2-an505", "cortex-m33"}};
}  // namespace

std::string qemu_machine_preset(const std::string& machine) {
  for (const QemuMachine& m : kQemuMachines) {
    if (machine == m.machine) return m.preset;
  }
  return "";
}

std::string qemu_machine_list() {
  std::string list;
  for (const QemuMachine& m : kQemuMachines) list += (list.empty() ? "" : ", ") + std::string(m.machine);
  return list;
}

std::string default_firmware_path(const std::string& machine) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  // build/host/tools/cli/graphrt -> build/<preset>/...
  const std::filesystem::path build = ec ? std::filesystem::path() : self.parent_path().parent_path().parent_path().parent_path();
  return (build / qemu_machine_preset(machine) / "integrations" / "eval_server" / "firmware" / "graphrt-eval-server.elf").string();
}

bool QemuDevice::start(const QemuOptions& options, std::string* error) {
  const std::string preset = qemu_machine_preset(options.machine);
  if (preset.empty()) {
    *error = "--qemu: '" + options.machine + "' is not a machine graphrt's server runs on (" + qemu_machine_list() + ")";
    return false;
  }
  if (!std::filesystem::is_regular_file(options.firmware)) {
    *error = "no server image at " + options.firmware + " (build it with: cmake --preset " + preset + " && cmake --build build/" +
             preset + " --target graphrt-eval-server; or pass --firmware)";
    return false;
  }
  char folder_template[] = "/tmp/graphrt-device-XXXXXX";
  if (::mkdtemp(folder_template) == nullptr) {
    *error = std::string("cannot make a temporary folder: ") + std::strerror(errno);
    return false;
  }
  folder_ = folder_template;
  const std::string socket_path = folder_ + "/uart0.sock";
  const std::string log_path = folder_ + "/qemu.log";
  // -icount shift=0: one instruction per nanosecond of virtual time, so the image's SysTick
  // cycles convert to instructions exactly (docs/device.md).
  std::vector<std::string> argv = {options.qemu, "-M", options.machine, "-display", "none", "-monitor", "none",
                                   "-icount", "shift=0", "-semihosting-config", "enable=on,target=native",
                                   "-chardev", "socket,id=uart0,path=" + socket_path + ",server=on,wait=on",
                                   "-serial", "chardev:uart0", "-kernel", options.firmware};
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) {
    *error = std::string("cannot start qemu: ") + std::strerror(errno);
    return false;
  }
  if (child == 0) {
    // qemu must not outlive graphrt, however graphrt ends (a CI timeout's SIGKILL included).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int null_in = ::open("/dev/null", O_RDONLY);
    if (log >= 0) {
      ::dup2(log, STDOUT_FILENO);
      ::dup2(log, STDERR_FILENO);
    }
    if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    ::execvp(raw[0], raw.data());
    std::fprintf(stderr, "cannot run %s: %s\n", raw[0], std::strerror(errno));
    ::_exit(127);
  }
  pid_ = child;
  reaped_ = false;
  const auto deadline = std::chrono::steady_clock::now() + options.start_timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string how;
    if (exited(&how)) {
      *error = options.qemu + " " + how + " before its serial port opened" + log_tail();
      return false;
    }
    const int fd = connect_unix(socket_path);
    if (fd >= 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
      link_ = std::make_unique<FdLink>(fd, "qemu " + options.machine);
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  *error = options.qemu + " opened no serial port within " + std::to_string(options.start_timeout.count() / 1000) + " s" + log_tail();
  stop();
  return false;
}

bool QemuDevice::exited(std::string* how, std::chrono::milliseconds grace) {
  if (pid_ < 0) {
    *how = "is not running";
    return true;
  }
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (!reaped_) {
    if (::waitpid(pid_, &status_, WNOHANG) == pid_) reaped_ = true;
    if (reaped_ || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (reaped_) *how = describe_status(status_);
  return reaped_;
}

void QemuDevice::stop() {
  link_.reset();
  if (pid_ > 0 && !reaped_) {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100 && ::waitpid(pid_, &status_, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (::waitpid(pid_, &status_, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status_, 0);
    }
    reaped_ = true;
  }
  if (!folder_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(folder_, ec);
    folder_.clear();
  }
}

std::string QemuDevice::log_tail() const {
  if (folder_.empty()) return "";
  std::ifstream in(folder_ + "/qemu.log");
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? "" : " (qemu: " + last + ")";
}

}  // namespace grt::device
