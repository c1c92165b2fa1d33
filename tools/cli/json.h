// What the commands print for --json: an nlohmann-json document, printed one way.
#ifndef GRAPHRT_TOOLS_CLI_JSON_H_
#define GRAPHRT_TOOLS_CLI_JSON_H_

#include <nlohmann/json.hpp>
#include <string>

namespace grt::cli {

// Members stay in the order a command adds them, so the output reads like the text view.
using Json = nlohmann::ordered_json;

// Compact, one line. Names come from users' files: bytes that are not UTF-8 become U+FFFD
// rather than an exception, so the document always parses; NaN and infinities become null.
std::string json_text(const Json& document);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_JSON_H_
