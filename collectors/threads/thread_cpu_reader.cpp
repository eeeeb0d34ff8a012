#include "collectors/threads/thread_cpu_reader.h"

#include <algorithm>

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

constexpr size_t max_ids_per_call = 256;
// JDK 8: ids times threads (list steps, ~5 ns each) per call.
constexpr size_t list_steps_per_call = 20'000;

}  // namespace

size_t ThreadCpuReader::ids_per_call(size_t threads, bool ids_in_a_list) {
  if (!ids_in_a_list) return max_ids_per_call;
  return std::clamp<size_t>(list_steps_per_call / std::max<size_t>(threads, 1), 1, max_ids_per_call);
}

bool ThreadCpuReader::resolve(JNIEnv* jni, ThreadMxBean& mx) {
  if (tried_) return bulk_ != nullptr;
  tried_ = true;
  LocalFrame frame(jni, 4);
  bean_ = mx.bean(jni);
  jclass extended = jni->FindClass("com/sun/management/ThreadMXBean");
  if (bean_ == nullptr || extended == nullptr || !jni->IsInstanceOf(bean_, extended)) {
    jni->ExceptionClear();
    log::info("thread pool CPU is not measured: this JVM's ThreadMXBean is not com.sun.management's");
    return false;
  }
  bulk_ = jni->GetMethodID(extended, "getThreadCpuTime", "([J)[J");
  if (!jni_ok(jni, "ThreadMXBean.getThreadCpuTime(long[])")) bulk_ = nullptr;
  return bulk_ != nullptr;
}

bool ThreadCpuReader::read_call(JNIEnv* jni, const jlong* ids, size_t count, size_t size, jlong* out) {
  if (chunk_ == nullptr || chunk_size_ != size) {
    if (chunk_ != nullptr) jni->DeleteGlobalRef(chunk_);
    jlongArray local = jni->NewLongArray(static_cast<jsize>(size));
    chunk_ = local != nullptr ? static_cast<jlongArray>(jni->NewGlobalRef(local)) : nullptr;
    jni->DeleteLocalRef(local);
    chunk_size_ = chunk_ != nullptr ? size : 0;
    if (chunk_ == nullptr) {
      jni_ok(jni, "long[] of thread ids");
      return false;
    }
  }
  padded_.assign(ids, ids + count);
  padded_.resize(size, ids[count - 1]);
  jni->SetLongArrayRegion(chunk_, 0, static_cast<jsize>(size), padded_.data());
  auto times = static_cast<jlongArray>(jni->CallObjectMethod(bean_, bulk_, chunk_));
  if (!jni_ok(jni, "ThreadMXBean.getThreadCpuTime(long[])") || times == nullptr) return false;
  jni->GetLongArrayRegion(times, 0, static_cast<jsize>(count), out);
  jni->DeleteLocalRef(times);
  return jni_ok(jni, "thread CPU times");
}

bool ThreadCpuReader::read(JNIEnv* jni, ThreadMxBean& mx, const jlong* ids, size_t count, size_t threads, jlong* out) {
  std::fill(out, out + count, -1);
  if (count == 0 || !resolve(jni, mx)) return false;
  // Every call of a pass has the same size, the last one repeating its last
  // id: the array is made once.
  const size_t size = std::max(count, std::min(ids_per_call(threads), threads));
  if (read_call(jni, ids, count, size, out)) return true;
  log::warn("thread pool CPU is not measured from now on");
  bulk_ = nullptr;  // tried_ stays: never asked again
  std::fill(out, out + count, -1);
  return false;
}

}  // namespace jvmsight
