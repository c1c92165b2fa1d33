// graphrt as a Unix tool: help, version, exit codes, one-line errors on stderr.
#include "cli_runner.h"

namespace grt::test {
namespace {

const std::vector<std::string> kCommands = {"import", "plan", "inspect", "run", "bin2c", "bench"};

TEST(CliGeneral, NoArgumentsPrintsUsageOnStderrAndExits2) {
  const CliResult r = run_graphrt({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("usage: graphrt COMMAND"), std::string::npos) << r.err;
}

TEST(CliGeneral, VersionNamesProgramAndSchema) {
  const CliResult r = run_graphrt({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("graphrt 0.", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("schema 1.2"), std::string::npos) << r.out;
}

TEST(CliGeneral, HelpListsEveryCommand) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"help"}, {"--help"}, {"-h"}}) {
    const CliResult r = run_graphrt(args);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.err, "");
    for (const std::string& command : kCommands) EXPECT_NE(r.out.find("  " + command + " "), std::string::npos) << command << "\n" << r.out;
  }
}

TEST(CliGeneral, EveryCommandHasHelpBothWays) {
  for (const std::string& command : kCommands) {
    const CliResult direct = run_graphrt({command, "--help"});
    EXPECT_EQ(direct.exit_code, 0) << command << ": " << direct.err;
    EXPECT_EQ(direct.out.rfind("usage: graphrt " + command, 0), 0u) << direct.out;
    EXPECT_NE(direct.out.find("-h, --help"), std::string::npos);
    const CliResult via_help = run_graphrt({"help", command});
    EXPECT_EQ(via_help.exit_code, 0);
    EXPECT_EQ(via_help.out, direct.out);
  }
}

TEST(CliGeneral, UnknownCommandIsAUsageError) {
  const CliResult r = run_graphrt({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(IsOneLineError(r, ""));
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
  EXPECT_EQ(run_graphrt({"help", "frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_graphrt({"--bogus"}).exit_code, 2);
}

TEST(CliGeneral, UnknownOptionNamesCommandAndOption) {
  for (const std::string command : {"inspect", "run", "bin2c", "bench", "import"}) {
    const CliResult r = run_graphrt({command, "x", "--bogus"});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_TRUE(IsOneLineError(r, command));
    EXPECT_NE(r.err.find("unknown option '--bogus'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("see 'graphrt " + command + " --help'"), std::string::npos) << r.err;
  }
}

TEST(CliGeneral, MissingPositionalIsAUsageError) {
  for (const std::string command : {"inspect", "run", "bin2c", "bench", "import"}) {
    const CliResult r = run_graphrt({command});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_TRUE(IsOneLineError(r, command));
    EXPECT_NE(r.err.find("missing "), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace grt::test
