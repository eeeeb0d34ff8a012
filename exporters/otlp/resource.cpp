#include "exporters/otlp/resource.h"

#include <cctype>
#include <random>
#include <sstream>

namespace jvmsight::otlp {
namespace {

bool is_container_id(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The last path segment of a cgroup line without the runtimes' decorations
// ("docker-<id>.scope", "cri-containerd-<id>.scope", "crio-<id>", "libpod-<id>").
std::string id_in_segment(std::string segment) {
  constexpr std::string_view scope = ".scope";
  if (segment.size() > scope.size() && segment.compare(segment.size() - scope.size(), scope.size(), scope) == 0)
    segment.resize(segment.size() - scope.size());
  const size_t dash = segment.find_last_of("-:");
  if (dash != std::string::npos) segment = segment.substr(dash + 1);
  return is_container_id(segment) ? segment : "";
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::map<std::string, std::string> parse_java_properties(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos && eq > 0) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

std::string container_id_from(const std::string& cgroup, const std::string& mountinfo) {
  std::istringstream lines(cgroup);
  for (std::string line; std::getline(lines, line);) {
    const size_t slash = line.find_last_of('/');
    if (slash == std::string::npos) continue;
    if (auto id = id_in_segment(line.substr(slash + 1)); !id.empty()) return id;
  }
  // cgroup v2 shows "0::/": the runtime's bind mounts (/etc/hostname, ...)
  // come from .../containers/<id>/... on the host.
  std::istringstream mounts(mountinfo);
  for (std::string line; std::getline(mounts, line);) {
    if (line.find("hostname") == std::string::npos) continue;
    std::istringstream parts(line);
    for (std::string field; parts >> field;) {
      std::istringstream segments(field);
      for (std::string segment; std::getline(segments, segment, '/');)
        if (is_container_id(segment)) return segment;
    }
  }
  return "";
}

std::string host_arch_of(const std::string& os_arch) {
  const std::string a = lower(os_arch);
  if (a == "amd64" || a == "x86_64") return "amd64";
  if (a == "aarch64" || a == "arm64") return "arm64";
  if (a == "x86" || a == "i386" || a == "i486" || a == "i586" || a == "i686") return "x86";
  if (a == "ppc64" || a == "ppc64le") return "ppc64";
  if (a == "ppc" || a == "ppc32") return "ppc32";
  if (a == "arm" || a == "arm32") return "arm32";
  return a;  // s390x and others: the JVM's own spelling
}

std::string random_uuid() {
  std::random_device rd;
  unsigned char b[16];
  for (int i = 0; i < 16; i += 4) {
    const unsigned v = rd();
    for (int j = 0; j < 4; ++j) b[i + j] = static_cast<unsigned char>(v >> (8 * j));
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += hex[b[i] >> 4];
    out += hex[b[i] & 0x0f];
  }
  return out;
}

void build_resource(const ProcessFacts& facts, const KeyValues& user_attributes,
                    const std::optional<std::string>& service_name, opentelemetry::proto::resource::v1::Resource& out) {
  auto java = [&](const char* name) {
    auto it = facts.java.find(name);
    return it == facts.java.end() ? std::string() : it->second;
  };
  // Ordered map: later sources override earlier ones, output is stable.
  std::map<std::string, std::string> strings;
  strings["service.name"] = "unknown_service:java";
  strings["service.instance.id"] = facts.instance_id;
  strings["host.name"] = facts.host_name;
  strings["host.arch"] = host_arch_of(java("os.arch"));
  strings["os.type"] = lower(java("os.name"));
  strings["os.description"] = java("os.name") + (java("os.version").empty() ? "" : " " + java("os.version"));
  strings["process.runtime.name"] = java("java.runtime.name");
  strings["process.runtime.version"] = java("java.runtime.version");
  std::string description = java("java.vm.vendor") + " " + java("java.vm.name") + " " + java("java.vm.version");
  strings["process.runtime.description"] = description == "  " ? "" : description;
  strings["process.executable.path"] = java("java.home").empty() ? "" : java("java.home") + "/bin/java";
  strings["container.id"] = facts.container_id;
  strings["telemetry.sdk.name"] = "jvmsight";
  strings["telemetry.sdk.language"] = "cpp";
  strings["telemetry.sdk.version"] = facts.agent_version;
  bool user_pid = false;
  for (const auto& [k, v] : user_attributes) {
    strings[k] = v;
    user_pid |= k == "process.pid";
  }
  if (service_name) strings["service.name"] = *service_name;

  out.Clear();
  for (const auto& [k, v] : strings) {
    if (v.empty()) continue;  // not detected: left out rather than sent empty
    auto* kv = out.add_attributes();
    kv->set_key(k);
    kv->mutable_value()->set_string_value(v);
  }
  if (!user_pid) {
    auto* kv = out.add_attributes();
    kv->set_key("process.pid");
    kv->mutable_value()->set_int_value(facts.pid);
  }
}

}  // namespace jvmsight::otlp
