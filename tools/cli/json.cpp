#include "json.h"

namespace grt::cli {

std::string json_text(const Json& document) {
  return document.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace grt::cli
