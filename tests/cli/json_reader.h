// A strict little JSON reader for the tests: what `graphrt ... --json` prints must parse,
// and the tests then look fields up by name instead of matching text.
#ifndef GRAPHRT_TESTS_CLI_JSON_READER_H_
#define GRAPHRT_TESTS_CLI_JSON_READER_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grt::test {

struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  // Member or element access; a missing one is a null value, so chains never crash.
  const Json& operator[](const std::string& key) const;
  const Json& operator[](size_t index) const;
  bool has(const std::string& key) const { return object.count(key) != 0; }
  bool is_null() const { return type == Type::kNull; }
};

// The document, or nullopt with a reason in *error when `text` is not exactly one JSON
// value (surrounding whitespace allowed).
std::optional<Json> parse_json(std::string_view text, std::string* error);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_CLI_JSON_READER_H_
