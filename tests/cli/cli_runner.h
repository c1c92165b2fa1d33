// Runs the built `graphrt` binary the way a user's shell would and captures what it says,
// plus a per-test scratch folder for the files the commands read and write.
#ifndef GRAPHRT_TESTS_CLI_CLI_RUNNER_H_
#define GRAPHRT_TESTS_CLI_CLI_RUNNER_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::test {

struct CliResult {
  int exit_code = -1;  // the process's exit status; -1 if it did not exit normally
  std::string out;
  std::string err;
};

// Runs GRT_CLI_BINARY with args (no shell involved).
CliResult run_graphrt(const std::vector<std::string>& args);

// As run_graphrt, but with stderr on a pseudo-terminal (what is drawn there lands in
// `err`, terminal escapes and all), for what graphrt shows only to people watching.
CliResult run_graphrt_with_terminal(const std::vector<std::string>& args);

// Runs any program (e.g. the C compiler) and captures its output.
CliResult run_program(const std::string& program, const std::vector<std::string>& args);

std::vector<uint8_t> read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);

// A fresh folder per test, removed afterwards.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::filesystem::path path(const std::string& name) const { return dir_ / name; }
  // Serializes a model into the scratch folder; returns its path.
  std::string write_model(const std::string& name, const tools::ModelDef& model);

  std::filesystem::path dir_;
};

// stderr of a failed command is exactly one line naming the command.
::testing::AssertionResult IsOneLineError(const CliResult& result, const std::string& command);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_CLI_CLI_RUNNER_H_
