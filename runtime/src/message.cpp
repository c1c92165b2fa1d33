#include "message.h"

#include <stdarg.h>
#include <stdint.h>

#include "graphrt_generated.h"

namespace grt {
namespace {

// Names come from the blob: each is escaped (control characters and bytes that are not
// valid UTF-8 as \xNN) and one longer than this is shortened in the middle, so that a
// message with two or three names still has room for all of its figures.
constexpr size_t kMaxName = 32;

// Bytes of the valid, printable UTF-8 character at p, or 0: escape the byte.
size_t unit(const uint8_t* p) {
  const uint8_t c = p[0];
  if (c >= 0x20 && c < 0x7f) return 1;
  const size_t n = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
  // The second byte's range excludes C1 controls, overlong forms, surrogates and code
  // points past U+10FFFF.
  const uint8_t low = c == 0xc2 || c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
  const uint8_t high = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
  for (size_t i = 1; i < n; ++i) {
    if (p[i] < (i == 1 ? low : 0x80) || p[i] > (i == 1 ? high : 0xbf)) return 0;
  }
  return n;
}

class Writer {
 public:
  explicit Writer(grt_error* error) : error_(error) {
    while (length_ + 1 < GRT_ERROR_MESSAGE_SIZE && error_->message[length_] != '\0') ++length_;
  }
  void put(char c) {
    if (length_ + 1 >= GRT_ERROR_MESSAGE_SIZE) return;
    error_->message[length_++] = c;
    error_->message[length_] = '\0';
  }
  void text(const char* s) {
    while (s != nullptr && *s != '\0') put(*s++);
  }
  void number(uint64_t value) {
    char digits[20];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n > 0) put(digits[--n]);
  }
  // A name from the blob, escaped, at most kMaxName characters: its head, "...", its tail.
  // In single quotes unless `quoted` is false.
  void name(const char* s, bool quoted = true) {
    const auto* p = reinterpret_cast<const uint8_t*>(s == nullptr ? "" : s);
    size_t total = 0;
    for (const uint8_t* q = p; *q != 0; q += unit(q) != 0 ? unit(q) : 1) total += unit(q) != 0 ? unit(q) : 4;
    if (quoted) put('\'');
    const size_t head = total <= kMaxName ? total : (kMaxName - 3) / 2;
    const size_t tail = total <= kMaxName ? 0 : kMaxName - 3 - head;
    bool cut = false;
    for (size_t done = 0; *p != 0;) {
      const size_t n = unit(p);
      const size_t w = n != 0 ? n : 4;
      if (done + w <= head || total - done <= tail) {
        for (size_t i = 0; i < n; ++i) put(static_cast<char>(p[i]));
        if (n == 0) {
          text("\\x");
          put("0123456789abcdef"[*p >> 4]);
          put("0123456789abcdef"[*p & 15]);
        }
      } else if (!cut) {
        text("...");
        cut = true;
      }
      done += w;
      p += n != 0 ? n : 1;
    }
    if (quoted) put('\'');
  }
 private:
  grt_error* error_;
  size_t length_ = 0;
};

template <typename T>
const T* item(const flatbuffers::Vector<flatbuffers::Offset<T>>* list, uint64_t index) {
  return list != nullptr && index < list->size() ? list->Get(static_cast<uint32_t>(index)) : nullptr;
}

const char* c_str(const flatbuffers::String* s) { return s == nullptr ? "" : s->c_str(); }

// "tensor 7", then " 'name'" if it has one.
void tensor(Writer& w, const fb::Model* model, uint64_t index) {
  w.text("tensor ");
  w.number(index);
  const auto* t = model == nullptr ? nullptr : item(model->tensors(), index);
  if (t != nullptr && t->name() != nullptr && t->name()->size() != 0) {
    w.put(' ');
    w.name(t->name()->c_str());
  }
}

// "node 3", then " (kernel)" if its kernel index is valid.
void node(Writer& w, const fb::Model* model, uint64_t index) {
  w.text("node ");
  w.number(index);
  const auto* n = model == nullptr ? nullptr : item(model->nodes(), index);
  const auto* kernel = n == nullptr ? nullptr : item(model->kernels(), n->kernel());
  if (kernel != nullptr) {
    w.text(" (");
    w.name(kernel->c_str(), false);
    w.put(')');
  }
}

void pool(Writer& w, const fb::Model* model, uint64_t index) {
  const auto* p = model == nullptr ? nullptr : item(model->pools(), index);
  w.text("pool ");
  w.name(p == nullptr ? "" : c_str(p->name()));
}

void render(Writer& w, const fb::Model* model, const char* format, va_list args) {
  for (const char* f = format; *f != '\0'; ++f) {
    if (*f != '%' || f[1] == '\0') {
      w.put(*f);
      continue;
    }
    ++f;
    if (*f != 'u' && *f != 'd' && *f != 's' && *f != 'q' && *f != 't' && *f != 'n' && *f != 'p') {
      w.put('%');  // not a directive: consumes nothing
      w.put(*f);
      continue;
    }
    const uint64_t bits = va_arg(args, uint64_t);
    const char* text = reinterpret_cast<const char*>(static_cast<uintptr_t>(bits));
    switch (*f) {
      case 'u': w.number(bits); break;
      case 'd':
        if (static_cast<int64_t>(bits) < 0) {
          w.put('-');
          w.number(~bits + 1);  // two's complement magnitude, defined for INT64_MIN too
        } else {
          w.number(bits);
        }
        break;
      case 's': w.text(text); break;
      case 'q': w.name(text); break;
      case 't': tensor(w, model, bits); break;
      case 'n': node(w, model, bits); break;
      default: pool(w, model, bits); break;
    }
  }
}

void format_into(grt_error* error, const fb::Model* model, const char* format, va_list args) {
  Writer w(error);
  render(w, model, format, args);
}

}  // namespace

grt_status fail_v(grt_error* error, grt_status status, const fb::Model* model, const char* format, ...) {
  if (error == nullptr) return status;
  error->status = status;
  error->message[0] = '\0';
  va_list args;
  va_start(args, format);
  format_into(error, model, format, args);
  va_end(args);
  return status;
}

void append_v(grt_error* error, const fb::Model* model, const char* format, ...) {
  if (error == nullptr) return;
  va_list args;
  va_start(args, format);
  format_into(error, model, format, args);
  va_end(args);
}

void clear_error(grt_error* error) {
  if (error == nullptr) return;
  error->status = GRT_OK;
  error->message[0] = '\0';
}

}  // namespace grt
