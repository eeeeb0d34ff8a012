#include "agent/pinning_probes.h"

#include <vector>

#include "collectors/threads/bytecode_scan.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

using Probe = PinningRecorder::Probe;
using Action = PinningRecorder::Action;

jmethodID find_method(JNIEnv* jni, const char* cls, const char* name, const char* sig) {
  jclass c = jni->FindClass(cls);
  if (c == nullptr) {
    jni->ExceptionClear();
    return nullptr;
  }
  jmethodID m = jni->GetMethodID(c, name, sig);
  if (m == nullptr) jni->ExceptionClear();
  return m;
}

std::vector<uint8_t> bytecodes(jvmtiEnv* jvmti, jmethodID method) {
  jint count = 0;
  JvmtiArray<unsigned char> code(jvmti);
  if (jvmti->GetBytecodes(method, &count, code.out()) != JVMTI_ERROR_NONE || count <= 0) return {};
  return std::vector<uint8_t>(code.get(), code.get() + count);
}

// Entry and every return of VirtualThread.parkOnCarrierThread(boolean, long).
std::vector<Probe> park_probes(jvmtiEnv* jvmti, jmethodID park) {
  const auto code = bytecodes(jvmti, park);
  const auto returns = void_return_offsets(code.data(), code.size());
  if (returns.empty()) return {};
  std::vector<Probe> out{{park, 0, Action::park_start}};
  for (int64_t at : returns) out.push_back({park, at, Action::park_end});
  return out;
}

}  // namespace

bool set_pinning_probes(jvmtiEnv* jvmti, JNIEnv* jni, PinningRecorder& recorder) {
  LocalFrame frame(jni, 8);
  jmethodID park = find_method(jni, "java/lang/VirtualThread", "parkOnCarrierThread", "(ZJ)V");
  std::vector<Probe> probes = park != nullptr ? park_probes(jvmti, park) : std::vector<Probe>{};
  if (probes.empty()) {
    if (!vm_live(jvmti)) return false;  // the JVM exits: nothing to say
    log::info(
        "this JDK has no VirtualThread.parkOnCarrierThread(boolean, long) to probe: "
        "jvmsight_virtual_thread_pinned_seconds is absent");
    return false;
  }
  // The table is complete before the first breakpoint can fire.
  for (const Probe& p : probes)
    if (!recorder.add_probe(p)) return false;
  for (const Probe& p : probes) {
    auto method = static_cast<jmethodID>(const_cast<void*>(p.method));
    if (!jvmti_ok(jvmti, jvmti->SetBreakpoint(method, p.location), "SetBreakpoint")) return false;
  }
  if (!jvmti_ok(jvmti, jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_BREAKPOINT, nullptr),
                "enable Breakpoint"))
    return false;
  recorder.set_supported(true);
  return true;
}

}  // namespace jvmsight
