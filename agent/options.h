#pragma once
// The agent's option string: "key=value,key=value", as given after
// -agentpath:libjvmsight.so= or in jcmd's JVMTI.agent_load argument.
#include <string>
#include <string_view>

#include "common/log.h"

namespace jvmsight {

struct Options {
  std::string host = "0.0.0.0";  // bind address of the HTTP server
  int port = 9404;               // 0 = any free port (see portfile)
  std::string portfile;          // written with the bound port once listening
  log::Level log_level = log::Level::info;
  // In-native and suspended sub-states need one GetThreadState per RUNNABLE
  // thread: cheap before JDK 21, ~250 us a call on JDK 21+ (it synchronizes
  // with virtual-thread transitions). auto = only where cheap.
  enum class NativeStates { auto_, on, off } native_states = NativeStates::auto_;
};

struct ParsedOptions {
  Options options;
  std::string error;  // empty when the whole string was valid
  bool ok() const { return error.empty(); }
};

// Parses the whole string or reports the first problem, naming what is
// accepted. Never throws.
ParsedOptions parse_options(std::string_view text);

// The list of accepted keys, for messages and docs.
std::string_view accepted_option_keys();

}  // namespace jvmsight
