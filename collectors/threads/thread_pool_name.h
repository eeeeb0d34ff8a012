#pragma once
// Which pool a thread belongs to, from its name alone. Pure.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jvmsight {

// The thread's name less its trailing number and the one separator before
// it ('-', '_', '.', '#' or a space): "http-nio-8080-exec-7" ->
// "http-nio-8080-exec", "pool-3-thread-2" -> "pool-3-thread",
// "ForkJoinPool.commonPool-worker-5" -> "ForkJoinPool.commonPool-worker",
// "worker7" -> "worker". A name without a trailing number is its own pool;
// so is one with nothing but a number and separators ("42", "#1").
std::string_view pool_of(std::string_view thread_name);

// A Java string's UTF-16 code units as UTF-8 (a lone surrogate becomes
// U+FFFD), so that any thread name makes a valid label value.
std::string utf8_of_utf16(const uint16_t* units, size_t count);

}  // namespace jvmsight
