#pragma once
// A throwaway certificate authority made at test time with the openssl
// tool, and curl as a real HTTPS client: nothing secret is checked in.
#include <string>
#include <vector>

#include "tests/harness/jvm_process.h"

namespace jvmsight::test {

struct TestCa {
  TempDir dir;
  std::string ca_cert;      // what clients trust
  std::string server_cert;  // for 127.0.0.1 and localhost, signed by the CA
  std::string server_key;
  std::string other_key;  // a key that belongs to no certificate
  std::string error;      // "" when all of the above were made
};

// Makes a CA and a server certificate (EC P-256, valid one day).
void make_test_ca(TestCa& ca);

// curl with a 10 s limit; args after the program name. out is the body
// (-s), err curl's message, exit_code curl's (0: a completed transfer).
Completed curl(const std::vector<std::string>& args);

}  // namespace jvmsight::test
