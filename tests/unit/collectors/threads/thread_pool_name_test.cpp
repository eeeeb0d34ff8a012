// Pool names from thread names: the examples, what common
// frameworks name their threads, and odd names.
#include "collectors/threads/thread_pool_name.h"

#include <gtest/gtest.h>

#include <vector>

namespace jvmsight {
namespace {

TEST(PoolOf, DropsTheTrailingNumberAndTheSeparatorBeforeIt) {
  EXPECT_EQ(pool_of("http-nio-8080-exec-7"), "http-nio-8080-exec");
  EXPECT_EQ(pool_of("http-nio-8080-exec-10"), "http-nio-8080-exec");
  EXPECT_EQ(pool_of("pool-3-thread-2"), "pool-3-thread");
  EXPECT_EQ(pool_of("ForkJoinPool.commonPool-worker-5"), "ForkJoinPool.commonPool-worker");
  EXPECT_EQ(pool_of("ForkJoinPool-1-worker-3"), "ForkJoinPool-1-worker");
  EXPECT_EQ(pool_of("Thread-12"), "Thread");
  EXPECT_EQ(pool_of("nioEventLoopGroup-2-1"), "nioEventLoopGroup-2");
  EXPECT_EQ(pool_of("kafka-producer-network-thread | producer-1"), "kafka-producer-network-thread | producer");
  EXPECT_EQ(pool_of("C2 CompilerThread0"), "C2 CompilerThread");  // no separator: the digits alone
  EXPECT_EQ(pool_of("worker_04"), "worker");
  EXPECT_EQ(pool_of("job.17"), "job");
  EXPECT_EQ(pool_of("GC task #3"), "GC task ");  // one separator only
}

TEST(PoolOf, NamesWithoutANumberAreTheirOwnPool) {
  for (const char* name : {"main", "Reference Handler", "Signal Dispatcher", "http-nio-8080-Acceptor",
                           "HikariPool-1 housekeeper", "Attach Listener", "", "x-", "2nd-worker"})
    EXPECT_EQ(pool_of(name), name);
}

// Nothing left once the number goes: the whole name, not an empty pool.
TEST(PoolOf, NumbersAloneStayWhole) {
  for (const char* name : {"42", "#1", "-7", "1-2", "0"}) EXPECT_EQ(pool_of(name), name);
}

TEST(PoolOf, ThreadsOfOnePoolShareItAndOthersDoNot) {
  std::vector<std::string_view> names{"pool-1-thread-1", "pool-1-thread-2", "pool-1-thread-30"};
  for (auto n : names) EXPECT_EQ(pool_of(n), pool_of(names[0]));
  EXPECT_NE(pool_of("pool-1-thread-1"), pool_of("pool-2-thread-1"));
}

std::string utf8(std::vector<uint16_t> units) { return utf8_of_utf16(units.data(), units.size()); }

TEST(Utf8OfUtf16, EncodesEveryPlaneAndReplacesLoneSurrogates) {
  EXPECT_EQ(utf8({'a', '-', '1'}), "a-1");
  EXPECT_EQ(utf8({0x00e9}), "\xc3\xa9");                  // é
  EXPECT_EQ(utf8({0x4e2d}), "\xe4\xb8\xad");              // 中
  EXPECT_EQ(utf8({0xd83d, 0xde00}), "\xf0\x9f\x98\x80");  // U+1F600, a surrogate pair
  EXPECT_EQ(utf8({0xd83d, 'x'}),
            "\xef\xbf\xbd"
            "x");                              // high surrogate alone
  EXPECT_EQ(utf8({0xde00}), "\xef\xbf\xbd");   // low surrogate alone
  EXPECT_EQ(utf8({0xd83d}), "\xef\xbf\xbd");   // cut at the end
  EXPECT_EQ(utf8({0}), std::string(1, '\0'));  // a NUL is valid UTF-8 too
  EXPECT_EQ(utf8({}), "");
}

}  // namespace
}  // namespace jvmsight
