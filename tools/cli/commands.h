// One function per `graphrt` command, each in its own file under commands/. Each takes the
// arguments after the command name and returns the process exit code (see ExitCode).
#ifndef GRAPHRT_TOOLS_CLI_COMMANDS_H_
#define GRAPHRT_TOOLS_CLI_COMMANDS_H_

#include <string>
#include <vector>

int run_import_command(const std::vector<std::string>& args);
int run_inspect_command(const std::vector<std::string>& args);
int run_plan_command(const std::vector<std::string>& args);
int run_run_command(const std::vector<std::string>& args);
int run_bin2c_command(const std::vector<std::string>& args);
int run_kernels_command(const std::vector<std::string>& args);
int run_aot_command(const std::vector<std::string>& args);
int run_bench_command(const std::vector<std::string>& args);
int run_keygen_command(const std::vector<std::string>& args);
int run_sign_command(const std::vector<std::string>& args);
int run_verify_command(const std::vector<std::string>& args);

#endif  // GRAPHRT_TOOLS_CLI_COMMANDS_H_
