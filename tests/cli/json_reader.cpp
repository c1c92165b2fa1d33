#include "json_reader.h"

namespace grt::test {

std::optional<Json> parse_json(std::string_view text, std::string* error) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    *error = e.what();
    return std::nullopt;
  }
}

}  // namespace grt::test
