// What `graphrt ... --json` prints, parsed with nlohmann-json: it must parse, and the tests
// then look fields up by name instead of matching text.
#ifndef GRAPHRT_TESTS_CLI_JSON_READER_H_
#define GRAPHRT_TESTS_CLI_JSON_READER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace grt::test {

using Json = nlohmann::json;

// The document, or nullopt with the parser's reason in *error when `text` is not exactly
// one JSON value (surrounding whitespace allowed). Look members up in a non-const Json:
// a missing one then reads as null, so chains of [] never crash.
std::optional<Json> parse_json(std::string_view text, std::string* error);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_CLI_JSON_READER_H_
