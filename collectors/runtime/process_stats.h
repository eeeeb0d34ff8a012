#pragma once
// The process_* families, read from /proc/self and the kernel, never from
// the JVM: they cost no JNI and work even while the JVM is busy.
#include <cstdint>
#include <optional>
#include <string_view>

namespace jvmsight {

struct ProcessStats {
  std::optional<double> cpu_seconds;         // user + system CPU of every thread
  std::optional<double> start_time_seconds;  // since the Unix epoch
  std::optional<double> open_fds;
  std::optional<double> max_fds;         // the soft RLIMIT_NOFILE
  std::optional<double> virtual_bytes;   // VmSize
  std::optional<double> resident_bytes;  // VmRSS
};

// Reads all of them now; a value that cannot be read stays empty (and its
// family is left out, never reported as 0). Without cpu: all but
// cpu_seconds, the one that costs (read_process_cpu_seconds).
ProcessStats read_process_stats(bool cpu = true);
// CLOCK_PROCESS_CPUTIME_ID: the kernel sums the CPU time of every thread,
// cache-cold (about 1.7 ms at 10,000 threads; /proc/self/stat and times()
// do the same sum).
std::optional<double> read_process_cpu_seconds();

// The pieces, pure for the tests. /proc/self/stat: the start time in clock
// ticks after boot (field 22; the command name may hold spaces and ')').
std::optional<uint64_t> start_ticks_from_stat(std::string_view stat);
// /proc/stat: "btime <seconds since the epoch>".
std::optional<uint64_t> boot_time_from_proc_stat(std::string_view proc_stat);
// /proc/self/status: the value of a "<key>:   <n> kB" line, in bytes.
std::optional<uint64_t> status_bytes(std::string_view status, std::string_view key);

}  // namespace jvmsight
