// The CLI's JSON writer: structure, escapes, numbers; checked by parsing its output back.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "json_reader.h"
#include "json_writer.h"

namespace grt::cli {
namespace {

TEST(JsonWriter, NestsWithCommasAndParsesBack) {
  JsonWriter j;
  j.begin_object().key("a").value(uint64_t{1}).key("b").begin_array().value("x").value(int64_t{-2}).value(1.5).null().value(true).end_array();
  j.key("c").begin_object().end_object().key("d").begin_array().end_array().end_object();
  EXPECT_EQ(j.text(), R"({"a":1,"b":["x",-2,1.5,null,true],"c":{},"d":[]})");
  std::string error;
  EXPECT_TRUE(test::parse_json(j.text(), &error)) << error;
}

TEST(JsonWriter, EscapesStringsSoAnyNameStaysValid) {
  EXPECT_EQ(JsonWriter::quote("a\"b\\c\nd\te\x01"), R"("a\"b\\c\nd\te\u0001")");
  EXPECT_EQ(JsonWriter::quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // valid UTF-8 kept
  EXPECT_EQ(JsonWriter::quote("bad\xff\xc3"), R"("bad\ufffd\ufffd")");
  EXPECT_EQ(JsonWriter::quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // a surrogate is not UTF-8
  std::string error;
  const auto doc = test::parse_json(JsonWriter().begin_array().value("q\"\\\x1f").end_array().text(), &error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ((*doc)[0].string, "q\"\\\x1f");
}

TEST(JsonWriter, NonFiniteNumbersBecomeNull) {
  JsonWriter j;
  j.begin_array().value(std::numeric_limits<double>::infinity()).value(std::nan("")).end_array();
  EXPECT_EQ(j.text(), "[null,null]");
}

}  // namespace
}  // namespace grt::cli
