// A small streaming JSON writer: commas, nesting and string escapes are its job, so the
// commands only say what to write. Output is compact, one document per writer.
#ifndef GRAPHRT_TOOLS_CLI_JSON_WRITER_H_
#define GRAPHRT_TOOLS_CLI_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace grt::cli {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // Inside an object: the next value's name.
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint32_t number) { return value(static_cast<uint64_t>(number)); }
  JsonWriter& value(int32_t number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(double number);  // NaN and infinities, which JSON lacks, become null
  JsonWriter& value(bool flag);
  JsonWriter& null();

  const std::string& text() const { return out_; }

  // A JSON string literal: quotes, backslashes and control characters escaped, invalid
  // UTF-8 replaced by U+FFFD so that the document stays valid.
  static std::string quote(std::string_view text);

 private:
  void before_value();
  std::string out_;
  std::vector<bool> first_in_scope_;  // one entry per open object or array
  bool after_key_ = false;
};

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_JSON_WRITER_H_
