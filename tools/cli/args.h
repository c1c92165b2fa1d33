// The command line's one argument parser: every command declares its options and
// positionals in a CommandSpec, and gets --help, usage errors and exit codes the same way.
#ifndef GRAPHRT_TOOLS_CLI_ARGS_H_
#define GRAPHRT_TOOLS_CLI_ARGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grt::cli {

struct OptionSpec {
  std::string name;         // long name without dashes: "repeat" for --repeat
  char short_name = 0;      // 'o' for -o; 0 for none
  std::string value_name;   // empty: a flag; otherwise the option takes a value
  bool repeatable = false;  // values accumulate (--input a --input b); else the last wins
  std::string help;
};

struct CommandSpec {
  std::string name;       // "run"; messages say "graphrt run: ..."
  std::string usage;      // "M.grt --input FILE... [options]"
  std::string summary;    // one line for `graphrt help`
  std::string description;  // paragraphs after the usage line, may be empty
  std::vector<std::string> positionals;  // names of required positionals, in order
  std::vector<OptionSpec> options;
};

class ParsedArgs {
 public:
  bool has(std::string_view option) const { return values_.count(std::string(option)) != 0; }
  // The option's value (the last one given), or nullopt.
  std::optional<std::string> value(std::string_view option) const;
  // Every value given for a repeatable option, in order.
  std::vector<std::string> values(std::string_view option) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend struct ArgsParser;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
};

enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

struct ParseResult {
  enum class Outcome { kParsed, kHelp, kUsageError } outcome = Outcome::kParsed;
  std::string error;  // for kUsageError: one line, without the "graphrt CMD: " prefix
  ParsedArgs args;
};

// Parses args (everything after the command name): "--name value", "--name=value",
// "-o value", "--" to end options, "-h"/"--help" anywhere asks for help.
ParseResult parse_args(const CommandSpec& spec, const std::vector<std::string>& args);

// What `graphrt CMD --help` prints.
std::string help_text(const CommandSpec& spec);

// Parses the args and handles --help (prints it, exit 0) and usage errors (one line on
// stderr, exit 2). Returns the parsed args, or nullopt with *exit_code set.
std::optional<ParsedArgs> parse_or_exit(const CommandSpec& spec, const std::vector<std::string>& args, int* exit_code);

// A whole decimal number in [min, max]; no sign, no spaces, no trailing garbage.
bool parse_unsigned(std::string_view text, uint64_t min, uint64_t max, uint64_t* out);

// Reads a numeric option into *out (unchanged when absent). On a bad value prints
// "graphrt CMD: --name: 'abc' is not a whole number from MIN to MAX" and returns false.
bool numeric_option(const CommandSpec& spec, const ParsedArgs& args, std::string_view option, uint64_t min, uint64_t max,
                    uint64_t* out);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_ARGS_H_
