// The profile bytes as others read them: gzip -d for the stored-block gzip,
// Go's own `go tool pprof` (Debian golang-go) for the profile.proto
// encoding; never only our own decoder.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "exporters/pprof/gzip_stored.h"
#include "exporters/pprof/profile_encoder.h"

namespace jvmsight {
namespace {

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "jvmsight_pprof_" + std::to_string(::getpid()) + "_" + name;
}

void write_file(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// A command's standard output; its exit status in `status`.
std::string run(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  status = pclose(pipe);
  return out;
}

TEST(Crc32, MatchesTheCatalogueCheckValue) {
  // CRC-32/ISO-HDLC's published check value for "123456789".
  EXPECT_EQ(crc32("123456789"), 0xcbf43926u);
  EXPECT_EQ(crc32(""), 0u);
}

TEST(GzipStored, GzipReadsBackEveryBlockBoundary) {
  std::mt19937 random(7);
  for (size_t size : {size_t{0}, size_t{1}, size_t{65535}, size_t{65536}, size_t{200001}}) {
    std::string data(size, '\0');
    for (auto& c : data) c = static_cast<char>(random());
    const std::string path = temp_path("blocks.gz");
    write_file(path, gzip_stored(data));
    int status = -1;
    const std::string tested = run("gzip -t " + path, status);
    EXPECT_EQ(status, 0) << size << ": " << tested;
    const std::string back = run("gzip -dc " + path, status);
    EXPECT_EQ(status, 0) << size;
    EXPECT_TRUE(back == data) << size << " bytes did not come back whole (" << back.size() << ")";
    std::remove(path.c_str());
  }
}

ContentionProfile two_sites() {
  ContentionProfile p;
  p.functions = {{"com.example.Bank.transfer", "Bank.java"},
                 {"com.example.Bank.audit", "Bank.java"},
                 {"com.example.Worker.run", "Worker.java"},
                 {"[other: the stack table was full]", ""}};
  p.stacks = {
      {2, {{0, 42}, {2, 10}}, 30, 3'000'000'000}, {3, {{1, 57}, {2, 11}}, 10, 1'000'000'000}, {1, {{3, 0}}, 2, 5'000}};
  p.time_ns = 1'700'000'000'000'000'000;
  p.duration_ns = 60'000'000'000;
  return p;
}

std::string go_pprof(const std::string& args, const ContentionProfile& p) {
  const std::string path = temp_path("profile.pb.gz");
  write_file(path, gzip_stored(encode_pprof(p)));
  int status = -1;
  std::string out = run("go tool pprof -symbolize=none " + args + " " + path, status);
  EXPECT_EQ(status, 0) << "go tool pprof " << args << ":\n" << out;
  std::remove(path.c_str());
  return out;
}

TEST(PprofEncoding, GoToolPprofReadsTypesValuesAndFrames) {
  const std::string raw = go_pprof("-raw", two_sites());
  EXPECT_NE(raw.find("PeriodType: contentions count"), std::string::npos) << raw;
  EXPECT_NE(raw.find("Period: 1"), std::string::npos) << raw;
  EXPECT_NE(raw.find("contentions/count delay/nanoseconds"), std::string::npos) << raw;
  EXPECT_NE(raw.find("30 3000000000: 1 2"), std::string::npos) << raw;
  EXPECT_NE(raw.find("10 1000000000: 3 4"), std::string::npos) << raw;
  EXPECT_NE(raw.find("com.example.Bank.transfer Bank.java:42"), std::string::npos) << raw;
  EXPECT_NE(raw.find("com.example.Worker.run Worker.java:11"), std::string::npos) << raw;
  EXPECT_NE(raw.find("Duration: 1m0s"), std::string::npos) << raw;
}

TEST(PprofEncoding, GoToolPprofAttributesDelayToTheWaitingSite) {
  // -top by delay: flat is the leaf's own (the waiting site), cum includes
  // callers: run is in both stacks, transfer waited 3 of the 4 s.
  const std::string top = go_pprof("-top -sample_index=delay", two_sites());
  EXPECT_NE(top.find("Type: delay"), std::string::npos) << top;
  std::map<std::string, std::pair<std::string, std::string>> flat_cum;  // by function
  std::istringstream lines(top);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::vector<std::string> f{std::istream_iterator<std::string>(fields), {}};
    if (f.size() == 6) flat_cum[f[5]] = {f[0], f[3]};
  }
  EXPECT_EQ(flat_cum["com.example.Bank.transfer"], std::make_pair(std::string("3s"), std::string("3s"))) << top;
  EXPECT_EQ(flat_cum["com.example.Bank.audit"], std::make_pair(std::string("1s"), std::string("1s"))) << top;
  EXPECT_EQ(flat_cum["com.example.Worker.run"], std::make_pair(std::string("0"), std::string("4s"))) << top;
}

TEST(PprofEncoding, AnEmptyProfileIsStillAProfile) {
  ContentionProfile empty;
  empty.duration_ns = 1'000'000'000;
  const std::string raw = go_pprof("-raw", empty);
  EXPECT_NE(raw.find("PeriodType: contentions count"), std::string::npos) << raw;
}

TEST(ProfileText, ListsStacksMostDelayFirstWithFiles) {
  const std::string text = profile_text(two_sites(), "mutex");
  EXPECT_EQ(text.rfind("--- mutex: 3 stacks, 42 waits, 4.000 s waited over 60.0 s", 0), 0u) << text;
  const size_t transfer = text.find("3000000000 30 @\n#\tcom.example.Bank.transfer (Bank.java:42)\n");
  const size_t audit = text.find("1000000000 10 @\n#\tcom.example.Bank.audit (Bank.java:57)\n");
  EXPECT_NE(transfer, std::string::npos) << text;
  EXPECT_LT(transfer, audit) << text;
  EXPECT_NE(text.find("#\t[other: the stack table was full]\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace jvmsight
