#include "json_reader.h"

#include <cstdlib>

namespace grt::test {

const Json& Json::operator[](const std::string& key) const {
  static const Json kMissing;
  const auto it = object.find(key);
  return it == object.end() ? kMissing : it->second;
}

const Json& Json::operator[](size_t index) const {
  static const Json kMissing;
  return index < array.size() ? array[index] : kMissing;
}

namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool document(Json* out) {
    if (!value(out, 0)) return false;
    skip_space();
    return at_end() || fail("text after the value");
  }
  const std::string& error() const { return error_; }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at offset " + std::to_string(pos_);
    return false;
  }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\n' || peek() == '\r' || peek() == '\t')) ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("bad literal");
    pos_ += word.size();
    return true;
  }

  bool value(Json* out, int depth) {
    if (depth > 64) return fail("nesting too deep");
    skip_space();
    switch (peek()) {
      case '{': return object(out, depth);
      case '[': return array(out, depth);
      case '"': out->type = Json::Type::kString; return string(&out->string);
      case 't': out->type = Json::Type::kBool; out->boolean = true; return literal("true");
      case 'f': out->type = Json::Type::kBool; return literal("false");
      case 'n': out->type = Json::Type::kNull; return literal("null");
      default: return number(out);
    }
  }

  bool object(Json* out, int depth) {
    out->type = Json::Type::kObject;
    ++pos_;
    skip_space();
    if (peek() == '}') return ++pos_, true;
    while (true) {
      skip_space();
      std::string key;
      if (peek() != '"' || !string(&key)) return fail("expected a member name");
      skip_space();
      if (peek() != ':') return fail("expected ':'");
      ++pos_;
      if (out->object.count(key) != 0) return fail("duplicate member '" + key + "'");
      if (!value(&out->object[key], depth + 1)) return false;
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') return ++pos_, true;
      return fail("expected ',' or '}'");
    }
  }

  bool array(Json* out, int depth) {
    out->type = Json::Type::kArray;
    ++pos_;
    skip_space();
    if (peek() == ']') return ++pos_, true;
    while (true) {
      out->array.emplace_back();
      if (!value(&out->array.back(), depth + 1)) return false;
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') return ++pos_, true;
      return fail("expected ',' or ']'");
    }
  }

  bool string(std::string* out) {
    ++pos_;  // opening quote
    while (!at_end()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (at_end()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"': *out += '"'; break;
        case '\\': *out += '\\'; break;
        case '/': *out += '/'; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return fail("short \\u escape");
          const std::string hex(text_.substr(pos_, 4));
          char* end = nullptr;
          const long code = std::strtol(hex.c_str(), &end, 16);
          if (end != hex.c_str() + 4) return fail("bad \\u escape");
          pos_ += 4;
          append_utf8(static_cast<unsigned>(code), out);
          break;
        }
        default: return fail("bad escape");
      }
    }
    return fail("unterminated string");
  }

  static void append_utf8(unsigned code, std::string* out) {
    if (code < 0x80) {
      *out += static_cast<char>(code);
    } else if (code < 0x800) {
      *out += static_cast<char>(0xc0 | (code >> 6));
      *out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      *out += static_cast<char>(0xe0 | (code >> 12));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      *out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  bool number(Json* out) {
    const size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9') ++pos_;
    } else {
      return fail("expected a value");
    }
    if (peek() == '.') {
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) return fail("bad fraction");
      while (peek() >= '0' && peek() <= '9') ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) return fail("bad exponent");
      while (peek() >= '0' && peek() <= '9') ++pos_;
    }
    out->type = Json::Type::kNumber;
    out->number = std::strtod(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr);
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::optional<Json> parse_json(std::string_view text, std::string* error) {
  Reader reader(text);
  Json value;
  if (!reader.document(&value)) {
    *error = reader.error();
    return std::nullopt;
  }
  return value;
}

}  // namespace grt::test
