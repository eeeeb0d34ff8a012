#pragma once
// The directory of the shared object this code is compiled into. Each of
// libjvmsight.so and libjvmsight-otlp.so gets its own copy (hidden
// visibility, RTLD_LOCAL), so each finds its siblings of the same build
// next to itself, and nowhere else.
#include <dlfcn.h>

#include <string>

namespace jvmsight::otlp {

inline std::string object_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&object_directory), &info) == 0 || info.dli_fname == nullptr) return "";
  std::string path = info.dli_fname;
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace jvmsight::otlp
