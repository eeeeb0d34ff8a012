#include "injector/config.h"

#include <charconv>
#include <functional>
#include <map>

#include "options/options.h"

namespace jvmsight::injector {
namespace {

struct Flag {
  const char* help;
  std::function<bool(const std::string&, InjectorConfig&)> set;
};

bool set_bool(const std::string& v, bool& out) {
  if (v != "true" && v != "false") return false;
  out = v == "true";
  return true;
}

// Kubernetes quantities as the API server reads them: digits, an optional
// fraction, an optional suffix. The API server has the last word; this
// catches typos at start instead of at every pod.
bool quantity(const std::string& v) {
  static const char* suffixes[] = {"", "m", "k", "M", "G", "T", "Ki", "Mi", "Gi", "Ti"};
  size_t digits = v.find_first_not_of("0123456789.");
  if (digits == 0 || v.empty()) return false;
  std::string suffix = digits == std::string::npos ? "" : v.substr(digits);
  for (const char* s : suffixes)
    if (suffix == s) return true;
  return false;
}

// One row per flag: a declarative table, read as one.
const std::map<std::string, Flag>& flags() {  // NOLINT(readability-function-size): a declarative table
  static const std::map<std::string, Flag> table = {
      {"host",
       {"bind address (default 0.0.0.0)",
        [](const std::string& v, InjectorConfig& c) {
          c.host = v;
          return !v.empty();
        }}},
      {"port",
       {"HTTPS port (default 8443)",
        [](const std::string& v, InjectorConfig& c) {
          auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), c.port);
          return ec == std::errc() && end == v.data() + v.size() && c.port >= 0 && c.port <= 65535;
        }}},
      {"tls-cert-file",
       {"PEM certificate chain (required; reloaded when it changes)",
        [](const std::string& v, InjectorConfig& c) {
          c.tls_cert_file = v;
          return !v.empty();
        }}},
      {"tls-key-file",
       {"PEM private key (required; reloaded when it changes)",
        [](const std::string& v, InjectorConfig& c) {
          c.tls_key_file = v;
          return !v.empty();
        }}},
      {"image",
       {"agent image of the init container",
        [](const std::string& v, InjectorConfig& c) {
          c.image = v;
          return !v.empty() && v.find_first_of(" \t\n") == std::string::npos;
        }}},
      {"image-pull-policy",
       {"Always | IfNotPresent | Never",
        [](const std::string& v, InjectorConfig& c) {
          c.image_pull_policy = v;
          return v == "Always" || v == "IfNotPresent" || v == "Never";
        }}},
      {"agent-options",
       {"default agent options (docs/OPTIONS.md), before a pod's jvmsight.io/options",
        [](const std::string& v, InjectorConfig& c) {
          c.agent_options = v;
          return true;  // checked with the agent's table in parse_flags
        }}},
      {"mount-path",
       {"where the Java container sees the agent (default /jvmsight)",
        [](const std::string& v, InjectorConfig& c) {
          c.mount_path = v;
          return v.size() > 1 && v.front() == '/' && v.back() != '/' && v.find_first_of(" \t,=$") == std::string::npos;
        }}},
      {"volume-size-limit",
       {"emptyDir size limit (default 64Mi)",
        [](const std::string& v, InjectorConfig& c) {
          c.volume_size_limit = v;
          return quantity(v);
        }}},
      {"init-cpu-request",
       {"init container CPU request (default 10m)",
        [](const std::string& v, InjectorConfig& c) {
          c.init_cpu_request = v;
          return quantity(v);
        }}},
      {"init-memory-request",
       {"init container memory request (default 16Mi)",
        [](const std::string& v, InjectorConfig& c) {
          c.init_memory_request = v;
          return quantity(v);
        }}},
      {"init-memory-limit",
       {"init container memory limit (default 32Mi)",
        [](const std::string& v, InjectorConfig& c) {
          c.init_memory_limit = v;
          return quantity(v);
        }}},
      {"resource-attributes",
       {"true | false: OTEL_RESOURCE_ATTRIBUTES of the pod (default true)",
        [](const std::string& v, InjectorConfig& c) { return set_bool(v, c.resource_attributes); }}},
      {"scrape-annotations",
       {"true | false: prometheus.io/* pod annotations (default true)",
        [](const std::string& v, InjectorConfig& c) { return set_bool(v, c.scrape_annotations); }}},
      {"log",
       {"off | error | warn | info | debug (default info)",
        [](const std::string& v, InjectorConfig& c) {
          c.log_level = v;
          return v == "off" || v == "error" || v == "warn" || v == "info" || v == "debug";
        }}},
  };
  return table;
}

}  // namespace

std::string flags_usage() {
  std::string out;
  for (const auto& [name, flag] : flags()) out += "  --" + name + "=...  " + flag.help + "\n";
  return out;
}

std::string parse_flags(const std::vector<std::string>& args, InjectorConfig& out, bool& help) {
  help = false;
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      help = true;
      return "";
    }
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) return "'" + arg + "' is not --name=value";
    auto it = flags().find(arg.substr(2, eq - 2));
    if (it == flags().end()) return "unknown flag '" + arg.substr(0, eq) + "'";
    if (!it->second.set(arg.substr(eq + 1), out)) return "bad value in '" + arg + "': " + it->second.help;
  }
  if (out.tls_cert_file.empty() || out.tls_key_file.empty()) return "--tls-cert-file and --tls-key-file are required";
  ParsedOptions parsed = parse_options(out.agent_options);
  if (!parsed.ok()) return "--agent-options: " + parsed.error;
  return "";
}

}  // namespace jvmsight::injector
