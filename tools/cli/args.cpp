#include "args.h"

#include <algorithm>
#include <cstdio>

#include "report.h"

namespace grt::cli {

std::optional<std::string> ParsedArgs::value(std::string_view option) const {
  const auto it = values_.find(std::string(option));
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::values(std::string_view option) const {
  const auto it = values_.find(std::string(option));
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

struct ArgsParser {
  const CommandSpec& spec;
  ParseResult result;

  const OptionSpec* find_long(std::string_view name) const {
    for (const OptionSpec& o : spec.options) {
      if (o.name == name) return &o;
    }
    return nullptr;
  }
  const OptionSpec* find_short(char name) const {
    for (const OptionSpec& o : spec.options) {
      if (o.short_name != 0 && o.short_name == name) return &o;
    }
    return nullptr;
  }

  bool usage(std::string message) {
    result.outcome = ParseResult::Outcome::kUsageError;
    result.error = std::move(message);
    return false;
  }

  void record(const OptionSpec& option, std::string value) {
    auto& slot = result.args.values_[option.name];
    if (!option.repeatable) slot.clear();
    slot.push_back(std::move(value));
  }

  bool parse(const std::vector<std::string>& args) {
    // Help wins over every other mistake on the line: it is what the user is asking for.
    for (const std::string& a : args) {
      if (a == "--") break;
      if (a == "-h" || a == "--help") {
        result.outcome = ParseResult::Outcome::kHelp;
        return true;
      }
    }
    bool options_ended = false;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (options_ended || arg.size() < 2 || arg[0] != '-') {
        result.args.positionals_.push_back(arg);
        continue;
      }
      if (arg == "--") {
        options_ended = true;
        continue;
      }
      const OptionSpec* option = nullptr;
      std::optional<std::string> inline_value;
      std::string shown;  // the option as the user spelled it, for messages
      if (arg[1] == '-') {
        const size_t equals = arg.find('=');
        const std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        option = find_long(name);
        shown = "--" + name;
        if (equals != std::string::npos) inline_value = arg.substr(equals + 1);
      } else if (arg.size() == 2) {
        option = find_short(arg[1]);
        shown = arg;
      } else {
        shown = arg;
      }
      if (option == nullptr) return usage("unknown option '" + shown + "'");
      if (option->value_name.empty()) {
        if (inline_value) return usage("option '" + shown + "' takes no value");
        record(*option, "");
        continue;
      }
      if (inline_value) {
        record(*option, *inline_value);
      } else if (i + 1 < args.size()) {
        record(*option, args[++i]);
      } else {
        return usage("option '" + shown + "' needs a value (" + option->value_name + ")");
      }
    }
    const auto& positionals = result.args.positionals_;
    if (positionals.size() < spec.positionals.size()) {
      return usage("missing " + spec.positionals[positionals.size()]);
    }
    if (positionals.size() > spec.positionals.size()) {
      return usage("unexpected argument '" + positionals[spec.positionals.size()] + "'");
    }
    return true;
  }
};

ParseResult parse_args(const CommandSpec& spec, const std::vector<std::string>& args) {
  ArgsParser parser{spec, {}};
  parser.parse(args);
  return std::move(parser.result);
}

std::string help_text(const CommandSpec& spec) {
  std::string text = "usage: graphrt " + spec.name + (spec.usage.empty() ? "" : " " + spec.usage) + "\n\n" + spec.summary + "\n";
  if (!spec.description.empty()) text += "\n" + spec.description + "\n";
  std::vector<std::pair<std::string, std::string>> rows;
  for (const OptionSpec& o : spec.options) {
    std::string left = o.short_name != 0 ? std::string("-") + o.short_name + ", --" + o.name : "    --" + o.name;
    if (!o.value_name.empty()) left += " " + o.value_name;
    rows.emplace_back(left, o.help);
  }
  rows.emplace_back("-h, --help", "show this help and exit");
  size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  text += "\noptions:\n";
  for (const auto& [left, help] : rows) text += "  " + left + std::string(width - left.size() + 2, ' ') + help + "\n";
  return text;
}

std::optional<ParsedArgs> parse_or_exit(const CommandSpec& spec, const std::vector<std::string>& args, int* exit_code) {
  ParseResult parsed = parse_args(spec, args);
  switch (parsed.outcome) {
    case ParseResult::Outcome::kHelp:
      std::fputs(help_text(spec).c_str(), stdout);
      *exit_code = kExitOk;
      return std::nullopt;
    case ParseResult::Outcome::kUsageError:
      *exit_code = usage_error(spec.name, parsed.error);
      return std::nullopt;
    case ParseResult::Outcome::kParsed:
      break;
  }
  *exit_code = kExitOk;
  return std::move(parsed.args);
}

bool parse_unsigned(std::string_view text, uint64_t min, uint64_t max, uint64_t* out) {
  if (text.empty() || text.size() > 20) return false;
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return false;
    value = value * 10 + digit;
  }
  if (value < min || value > max) return false;
  *out = value;
  return true;
}

bool numeric_option(const CommandSpec& spec, const ParsedArgs& args, std::string_view option, uint64_t min, uint64_t max,
                    uint64_t* out) {
  const std::optional<std::string> text = args.value(option);
  if (!text) return true;
  if (parse_unsigned(*text, min, max, out)) return true;
  usage_error(spec.name, "--" + std::string(option) + ": '" + *text + "' is not a whole number from " + std::to_string(min) +
                             " to " + std::to_string(max));
  return false;
}

}  // namespace grt::cli
