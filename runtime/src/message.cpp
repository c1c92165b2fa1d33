#include "message.h"

#include <stdarg.h>

#include "graphrt_generated.h"

namespace grt {
namespace {

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
  void quoted(const char* s) {
    put('\'');
    text(s);
    put('\'');
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
    w.quoted(t->name()->c_str());
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
    w.text(kernel->c_str());
    w.put(')');
  }
}

void pool(Writer& w, const fb::Model* model, uint64_t index) {
  const auto* p = model == nullptr ? nullptr : item(model->pools(), index);
  w.text("pool ");
  w.quoted(p == nullptr ? "" : c_str(p->name()));
}

void format_into(grt_error* error, const fb::Model* model, const char* format, va_list args) {
  Writer w(error);
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
      case 'q': w.quoted(text); break;
      case 't': tensor(w, model, bits); break;
      case 'n': node(w, model, bits); break;
      default: pool(w, model, bits); break;
    }
  }
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
