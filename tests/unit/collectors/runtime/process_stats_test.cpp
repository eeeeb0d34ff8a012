// /proc readings of this process: the stat line's fields whatever the
// command name holds, status lines in kilobytes, open descriptors.
#include "collectors/runtime/process_stats.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace jvmsight {
namespace {

TEST(ProcessStats, StartTicksSurviveSpacesAndParensInTheCommandName) {
  std::string stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 95 0 0 0 3 1 0 0 20 0 23 0 987654 12345 678";
  EXPECT_EQ(start_ticks_from_stat(stat), 987654u);
  EXPECT_EQ(start_ticks_from_stat("4242 (java) S 1 2"), std::nullopt);
  EXPECT_EQ(start_ticks_from_stat("no parens"), std::nullopt);
}

TEST(ProcessStats, StatusLinesAreKilobytes) {
  std::string status = "Name:\tjava\nVmPeak:\t 5000 kB\nVmSize:\t 4096 kB\nVmRSS:\t    12 kB\n";
  EXPECT_EQ(status_bytes(status, "VmSize"), 4096u * 1024);
  EXPECT_EQ(status_bytes(status, "VmRSS"), 12u * 1024);
  EXPECT_EQ(status_bytes(status, "VmSwap"), std::nullopt);
  EXPECT_EQ(status_bytes("VmSizeX: 1 kB\n", "VmSize"), std::nullopt);
}

TEST(ProcessStats, BootTimeFromProcStat) {
  EXPECT_EQ(boot_time_from_proc_stat("cpu  1 2 3\nintr 5\nbtime 1795440000\nprocesses 9\n"), 1795440000u);
  EXPECT_EQ(boot_time_from_proc_stat("cpu 1\n"), std::nullopt);
}

TEST(ProcessStats, ThisProcessReadsPlausibly) {
  ProcessStats p = read_process_stats();
  ASSERT_TRUE(p.cpu_seconds && p.start_time_seconds && p.open_fds && p.resident_bytes && p.virtual_bytes);
  EXPECT_GT(*p.resident_bytes, 0);
  EXPECT_GE(*p.virtual_bytes, *p.resident_bytes);
  EXPECT_GE(*p.open_fds, 3);  // stdin, stdout, stderr
  EXPECT_GT(*p.start_time_seconds, 1.6e9);
}

// What `ls /proc/self/fd` lists, less the listing's own descriptor.
double listed_descriptors() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  double n = 0;
  while (const dirent* e = readdir(dir))
    if (e->d_name[0] != '.') ++n;
  closedir(dir);
  return n - 1;
}

TEST(ProcessStats, OpenDescriptorsCountEveryOneOpenedAndClosed) {
  const auto before = read_process_stats(false).open_fds;
  ASSERT_TRUE(before);
  EXPECT_EQ(*before, listed_descriptors());
  int pipes[3][2];
  for (auto& p : pipes) ASSERT_EQ(pipe(p), 0);
  EXPECT_EQ(read_process_stats(false).open_fds, *before + 6);
  for (auto& p : pipes) {
    close(p[0]);
    close(p[1]);
  }
  EXPECT_EQ(read_process_stats(false).open_fds, *before);
}

}  // namespace
}  // namespace jvmsight
