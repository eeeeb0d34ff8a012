#pragma once
// The portfile option: the bound port, for scripts and tests that use port=0.
#include <string>

namespace jvmsight {

// Writes "<port>\n" to path atomically (a temporary file, then rename), so a
// reader never sees a half-written port. Returns "" on success, else one
// sentence with the reason (the system's errno text); the temporary file is
// never left behind.
std::string write_portfile(const std::string& path, int port);

// The server did not start: a portfile from an earlier run would point at a
// port nobody (or somebody else) listens on, so it goes. Returns "" when the
// file is gone or was never there, else why it could not be removed.
std::string remove_portfile(const std::string& path);

// The errno text of err, thread-safe.
std::string errno_text(int err);

}  // namespace jvmsight
