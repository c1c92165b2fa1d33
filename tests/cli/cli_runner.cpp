#include "cli_runner.h"

#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace grt::test {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

CliResult run_program(const std::string& program, const std::vector<std::string>& args) {
  CliResult result;
  const auto scratch = std::filesystem::temp_directory_path();
  const std::string stem = "graphrt_cli_" + std::to_string(getpid()) + "_";
  const auto out_path = scratch / (stem + "out");
  const auto err_path = scratch / (stem + "err");

  std::vector<std::string> argv_storage = {program};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    result.err = "cannot start " + program;
    return result;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

CliResult run_graphrt(const std::vector<std::string>& args) { return run_program(GRT_CLI_BINARY, args); }

CliResult run_graphrt_with_terminal(const std::vector<std::string>& args) {
  CliResult result;
  int terminal = -1;
  int child_side = -1;
  if (openpty(&terminal, &child_side, nullptr, nullptr, nullptr) != 0) {
    result.err = "openpty failed";
    return result;
  }
  std::vector<std::string> argv_storage = {GRT_CLI_BINARY};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, child_side, STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, terminal);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, GRT_CLI_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(child_side);
  if (spawned == 0) {
    // Read until the child's side closes (EIO on Linux once the child is gone).
    char chunk[4096];
    ssize_t got = 0;
    while ((got = read(terminal, chunk, sizeof chunk)) > 0) result.err.append(chunk, static_cast<size_t>(got));
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  }
  close(terminal);
  return result;
}

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void CliTest::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = std::filesystem::temp_directory_path() /
         ("graphrt_cli_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

void CliTest::TearDown() { std::filesystem::remove_all(dir_); }

std::string CliTest::write_model(const std::string& name, const tools::ModelDef& model) {
  const auto file = path(name);
  write_bytes(file, tools::serialize(model));
  return file.string();
}

::testing::AssertionResult IsOneLineError(const CliResult& result, const std::string& command) {
  const std::string prefix = command.empty() ? "graphrt: " : "graphrt " + command + ": ";
  if (result.err.rfind(prefix, 0) != 0) return ::testing::AssertionFailure() << "stderr does not start with '" << prefix << "': " << result.err;
  if (result.err.empty() || result.err.back() != '\n' || result.err.find('\n') != result.err.size() - 1) {
    return ::testing::AssertionFailure() << "stderr is not exactly one line: " << result.err;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace grt::test
