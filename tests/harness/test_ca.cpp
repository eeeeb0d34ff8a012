#include "tests/harness/test_ca.h"

#include <fstream>
#include <map>

namespace jvmsight::test {

namespace {

// The tools are not the agent: under scripts/sanitize.sh jvm, libasan is
// preloaded into everything the tests start, and curl then hangs on HTTPS.
const std::map<std::string, std::string> without_preload = {{"LD_PRELOAD", ""}};

std::string openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  Completed done = run(argv, without_preload, 60s);
  return done.exit_code == 0 ? "" : "openssl " + args[0] + " failed: " + done.err;
}

}  // namespace

void make_test_ca(TestCa& ca) {
  ca.ca_cert = ca.dir.path("ca.pem");
  ca.server_cert = ca.dir.path("server.pem");
  ca.server_key = ca.dir.path("server.key");
  ca.other_key = ca.dir.path("other.key");
  const std::string ca_key = ca.dir.path("ca.key"), csr = ca.dir.path("server.csr"), ext = ca.dir.path("san.ext");
  std::ofstream(ext) << "subjectAltName=IP:127.0.0.1,DNS:localhost\n";
  const std::vector<std::string> ec = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"};
  auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  for (const auto& step : {
           with({"req", "-x509", "-days", "1", "-subj", "/CN=jvmsight test CA", "-keyout", ca_key, "-out", ca.ca_cert},
                ec),
           with({"req", "-subj", "/CN=127.0.0.1", "-keyout", ca.server_key, "-out", csr}, ec),
           std::vector<std::string>{"x509", "-req", "-in", csr, "-CA", ca.ca_cert, "-CAkey", ca_key, "-CAcreateserial",
                                    "-days", "1", "-extfile", ext, "-out", ca.server_cert},
           std::vector<std::string>{"genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out",
                                    ca.other_key},
       }) {
    ca.error = openssl(step);
    if (!ca.error.empty()) return;
  }
}

Completed curl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/curl", "-sS", "--max-time", "10"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, without_preload, 20s);
}

}  // namespace jvmsight::test
