// The portfile: written atomically, or a reason with the system's errno text;
// a stale one is removed when the server does not start.
#include "agent/portfile.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "tests/harness/jvm_process.h"

namespace jvmsight {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t entries(const std::string& dir) {
  size_t n = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

TEST(Portfile, WritesThePortAndNothingElse) {
  test::TempDir dir;
  std::string path = dir.path("port");
  EXPECT_EQ(write_portfile(path, 9404), "");
  EXPECT_EQ(slurp(path), "9404\n");
  EXPECT_EQ(write_portfile(path, 31337), "");  // replaces
  EXPECT_EQ(slurp(path), "31337\n");
  EXPECT_EQ(entries(dir.path("")), 1u);  // no temporary file left
}

TEST(Portfile, MissingDirectoryGivesTheErrnoText) {
  test::TempDir dir;
  std::string path = dir.path("no/such/dir/port");
  std::string error = write_portfile(path, 1);
  EXPECT_NE(error.find("cannot write portfile '" + path + "': " + errno_text(ENOENT)), std::string::npos) << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
}

TEST(Portfile, ADirectoryInTheWayGivesTheRenameReasonAndLeavesNoTemporary) {
  test::TempDir dir;
  std::string path = dir.path("port");
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  ASSERT_EQ(mkdir((path + "/x").c_str(), 0755), 0);  // not empty: rename cannot replace it
  std::string error = write_portfile(path, 1);
  EXPECT_NE(error.find("(rename): "), std::string::npos) << error;
  EXPECT_EQ(entries(dir.path("")), 1u) << "the temporary file was left behind";
}

TEST(Portfile, RemovingAStaleOneOrNone) {
  test::TempDir dir;
  std::string path = dir.path("port");
  ASSERT_EQ(write_portfile(path, 5), "");
  EXPECT_EQ(remove_portfile(path), "");
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  EXPECT_EQ(remove_portfile(path), "");                          // already gone: fine
  EXPECT_EQ(remove_portfile(dir.path("no/such/dir/port")), "");  // nothing there either
  ASSERT_EQ(write_portfile(dir.path("file"), 5), "");
  std::string error = remove_portfile(dir.path("file/port"));  // a file where a directory should be
  EXPECT_NE(error.find(": " + errno_text(ENOTDIR)), std::string::npos) << error;
}

TEST(UntrustedInput, PortfilePathWithDirectivesIsAPlainName) {
  test::TempDir dir;
  std::string path = dir.path("port-%s%n%x");
  ASSERT_EQ(write_portfile(path, 9404), "");
  std::ifstream in(path);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "9404");
  std::string missing = dir.path("no-such-dir-%n/port");
  EXPECT_NE(write_portfile(missing, 1).find(missing), std::string::npos);
}

}  // namespace
}  // namespace jvmsight
