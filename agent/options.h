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
  bool details = true;                 // serve /threads and /deadlocks (they show stacks and thread names)
  int deadlock_check_ms = 500;         // background deadlock check interval; 0 turns it off
  int lock_classes = 20;               // top K lock classes labelled in contention metrics
  bool contention = true;              // JVM TI monitor contention and wait events
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
