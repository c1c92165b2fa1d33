// The commands' --json text: members in the order added, compact, and always valid JSON
// whatever bytes a name holds; checked by parsing it back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "json.h"
#include "json_reader.h"

namespace grt::cli {
namespace {

TEST(JsonOutput, KeepsMemberOrderOnOneLine) {
  const Json j = {{"z", uint64_t{1}}, {"a", {"x", int64_t{-2}, 1.5, nullptr, true}}, {"m", Json::object()}, {"b", Json::array()}};
  EXPECT_EQ(json_text(j), R"({"z":1,"a":["x",-2,1.5,null,true],"m":{},"b":[]})");
}

TEST(JsonOutput, NumbersReadBackExactly) {
  const uint64_t big = std::numeric_limits<uint64_t>::max();
  const double scale = static_cast<double>(0.0039215689f);  // a quantization scale, as inspect writes it
  const Json j = {big, scale, 0.1, 2.0};
  EXPECT_EQ(json_text(j), "[18446744073709551615,0.003921568859368563,0.1,2.0]");
  std::string error;
  auto doc = test::parse_json(json_text(j), &error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ((*doc)[0].get<uint64_t>(), big);
  EXPECT_EQ((*doc)[1].get<double>(), scale);
}

TEST(JsonOutput, EscapesStringsAndReplacesBytesThatAreNotUtf8) {
  EXPECT_EQ(json_text(Json("a\"b\\c\nd\te\x01")), R"("a\"b\\c\nd\te\u0001")");
  EXPECT_EQ(json_text(Json("caf\xc3\xa9")), "\"caf\xc3\xa9\"");  // valid UTF-8 kept as it is
  // A stray byte, a truncated sequence and a surrogate are not UTF-8: each becomes U+FFFD.
  for (const char* bad : {"bad\xff", "bad\xc3", "bad\xed\xa0\x80"}) {
    const std::string text = json_text(Json::array({bad}));
    std::string error;
    auto doc = test::parse_json(text, &error);
    ASSERT_TRUE(doc) << error << ": " << text;
    EXPECT_EQ((*doc)[0].get<std::string>().substr(0, 3), "bad") << text;
    EXPECT_NE(text.find("\xef\xbf\xbd"), std::string::npos) << text;
  }
}

TEST(JsonOutput, NonFiniteNumbersBecomeNull) {
  const Json j = {std::numeric_limits<double>::infinity(), std::nan("")};
  EXPECT_EQ(json_text(j), "[null,null]");
}

TEST(JsonReader, RefusesWhatIsNotOneDocumentAndSaysWhere) {
  std::string error;
  EXPECT_FALSE(test::parse_json("{\"a\":1} x", &error));
  EXPECT_NE(error.find("parse error"), std::string::npos) << error;
  EXPECT_FALSE(test::parse_json("", &error));
  EXPECT_TRUE(test::parse_json(" [1] \n", &error));
}

}  // namespace
}  // namespace grt::cli
