// otlp_sink grpc|http: the tests' OTLP receiver as a standalone endpoint for
// benchmarks (bench/otlp_cost.sh). Accepts every export of every signal on
// 127.0.0.1, prints its port on stdout, and runs until killed.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "tests/otlp/receiver/otlp_receiver.h"

int main(int argc, char** argv) {
  const std::string transport = argc == 2 ? argv[1] : "";
  std::unique_ptr<jvmsight::test::OtlpReceiver> receiver;
  if (transport == "grpc") receiver = jvmsight::test::start_grpc_receiver();
  if (transport == "http") receiver = jvmsight::test::start_http_receiver();
  if (transport != "grpc" && transport != "http") {
    std::fprintf(stderr, "usage: otlp_sink grpc|http\n");
    return 2;
  }
  if (!receiver) {
    std::fprintf(stderr, "otlp_sink: cannot start the %s receiver\n", transport.c_str());
    return 1;
  }
  std::printf("%d\n", receiver->port());
  std::fflush(stdout);
  for (;;) pause();
}
