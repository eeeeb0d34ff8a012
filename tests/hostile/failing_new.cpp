#include "tests/hostile/failing_new.h"

#include <sys/prctl.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace jvmsight::test {
namespace {

std::atomic<bool> armed{false};
std::atomic<long> countdown{0};  // 0: every allocation fails; n: the nth fails
std::atomic<long> failed{0};

bool on_server_thread() {
  char name[16] = {0};
  prctl(PR_GET_NAME, name);  // no allocation, unlike most ways to ask
  return std::strcmp(name, "jvmsight-http") == 0;
}

bool should_fail() {
  if (!armed.load(std::memory_order_relaxed) || !on_server_thread()) return false;
  if (countdown.load() == 0) {
    ++failed;
    return true;
  }
  if (--countdown != 0) return false;
  armed = false;
  ++failed;
  return true;
}

void* allocate(std::size_t size) {
  if (should_fail()) throw std::bad_alloc();
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void fail_server_allocations() {
  countdown = 0;
  armed = true;
}

void fail_nth_server_allocation(long n) {
  countdown = n;
  armed = true;
}

void stop_failing_allocations() { armed = false; }

long failed_server_allocations() { return failed; }

}  // namespace jvmsight::test

void* operator new(std::size_t size) { return jvmsight::test::allocate(size); }
void* operator new[](std::size_t size) { return jvmsight::test::allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
