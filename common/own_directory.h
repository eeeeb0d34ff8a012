#pragma once
// Where the agent's sibling files are looked for (the OTLP plugin, the TLS
// stand-ins): only beside the agent, so they come from the same build.
#include <string>

namespace jvmsight {

// The directory of the shared object this code is linked into
// (libjvmsight.so; a test executable in unit tests); "." if unknown.
std::string own_directory();

}  // namespace jvmsight
