#include "loopback_link.h"

#include "graphrt/kernels.h"

namespace grt::test {

LoopbackServer::LoopbackServer(size_t ram_area_bytes) : ram_area_(ram_area_bytes) {
  board_.target = "loopback test board";
  board_.core_clock_hz = 1000000;
  board_.cycle_source = 2;
  board_.cycles = cycles;
  board_.write = write;
  board_.context = this;
  board_.ram_area = ram_area_.data();
  board_.ram_area_size = ram_area_bytes;
  board_.kernels = grt_builtin_kernels();
  grt_eval_server_init(&server_, &board_);
}

uint64_t LoopbackServer::cycles(void* context) {
  auto* self = static_cast<LoopbackServer*>(context);
  self->cycles_ += 10;
  return self->cycles_;
}

void LoopbackServer::write(void* context, const uint8_t* bytes, size_t size) {
  auto* self = static_cast<LoopbackServer*>(context);
  if (self->silent) return;
  self->pending_.insert(self->pending_.end(), bytes, bytes + size);
  self->all_written_.insert(self->all_written_.end(), bytes, bytes + size);
}

bool LoopbackServer::send(const uint8_t* bytes, size_t size, std::string*) {
  grt_eval_server_receive(&server_, bytes, size);
  return true;
}

long LoopbackServer::receive(uint8_t* bytes, size_t capacity, std::chrono::milliseconds, std::string*) {
  size_t n = 0;
  while (n < capacity && !pending_.empty()) {
    bytes[n++] = pending_.front();
    pending_.pop_front();
  }
  return static_cast<long>(n);  // 0: nothing now (the client's deadline decides)
}

}  // namespace grt::test
