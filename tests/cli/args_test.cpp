// The argument parser every command shares, in process.
#include <gtest/gtest.h>

#include "args.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "demo", "IN [options]", "A demo command.", "",
    {"IN"},
    {{"input", 0, "FILE", true, "repeatable"}, {"repeat", 0, "N", false, "a number"}, {"json", 0, "", false, "a flag"},
     {"output", 'o', "OUT", false, "short and long"}},
};

TEST(ArgsParser, ReadsPositionalsFlagsValuesAndRepeats) {
  const ParseResult r = parse_args(kSpec, {"--input", "a", "m.grt", "--json", "--input=b", "-o", "out", "--repeat", "3", "--repeat", "4"});
  ASSERT_EQ(r.outcome, ParseResult::Outcome::kParsed) << r.error;
  EXPECT_EQ(r.args.positionals(), std::vector<std::string>{"m.grt"});
  EXPECT_EQ(r.args.values("input"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.args.has("json"));
  EXPECT_EQ(r.args.value("output"), "out");
  EXPECT_EQ(r.args.value("repeat"), "4");  // the last one wins
  EXPECT_FALSE(r.args.has("missing"));
}

TEST(ArgsParser, DoubleDashEndsOptions) {
  const ParseResult r = parse_args(kSpec, {"--", "--json"});
  ASSERT_EQ(r.outcome, ParseResult::Outcome::kParsed) << r.error;
  EXPECT_EQ(r.args.positionals(), std::vector<std::string>{"--json"});
  EXPECT_FALSE(r.args.has("json"));
}

TEST(ArgsParser, HelpWinsOverOtherMistakes) {
  EXPECT_EQ(parse_args(kSpec, {"--bogus", "--help"}).outcome, ParseResult::Outcome::kHelp);
  EXPECT_EQ(parse_args(kSpec, {"-h"}).outcome, ParseResult::Outcome::kHelp);
  const ParseResult after_dashes = parse_args(kSpec, {"--", "--help"});  // a positional there
  EXPECT_EQ(after_dashes.outcome, ParseResult::Outcome::kParsed);
  EXPECT_EQ(after_dashes.args.positionals(), std::vector<std::string>{"--help"});
}

TEST(ArgsParser, ExplainsUsageErrors) {
  EXPECT_EQ(parse_args(kSpec, {"m", "--bogus"}).error, "unknown option '--bogus'");
  EXPECT_EQ(parse_args(kSpec, {"m", "-x"}).error, "unknown option '-x'");
  EXPECT_EQ(parse_args(kSpec, {"m", "--repeat"}).error, "option '--repeat' needs a value (N)");
  EXPECT_EQ(parse_args(kSpec, {"m", "--json=yes"}).error, "option '--json' takes no value");
  EXPECT_EQ(parse_args(kSpec, {}).error, "missing IN");
  EXPECT_EQ(parse_args(kSpec, {"a", "b"}).error, "unexpected argument 'b'");
}

TEST(ArgsParser, HelpListsEveryOption) {
  const std::string help = help_text(kSpec);
  EXPECT_EQ(help.rfind("usage: graphrt demo IN [options]\n", 0), 0u) << help;
  for (const char* text : {"--input FILE", "--repeat N", "--json", "-o, --output OUT", "-h, --help"}) {
    EXPECT_NE(help.find(text), std::string::npos) << text << " missing from\n" << help;
  }
}

TEST(ParseUnsigned, AcceptsOnlyWholeNumbersInRange) {
  uint64_t v = 0;
  EXPECT_TRUE(parse_unsigned("42", 1, 100, &v));
  EXPECT_EQ(v, 42u);
  EXPECT_TRUE(parse_unsigned("18446744073709551615", 0, UINT64_MAX, &v));
  EXPECT_EQ(v, UINT64_MAX);
  for (const char* bad : {"", "abc", "-1", "+1", "1.5", "12x", " 1", "0", "101", "18446744073709551616"}) {
    EXPECT_FALSE(parse_unsigned(bad, 1, 100, &v)) << bad;
  }
}

}  // namespace
}  // namespace grt::cli
