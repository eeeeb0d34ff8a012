#include "collectors/locks/jvm_blocked_counts.h"

#include "common/jvm_calls.h"

namespace jvmsight {

bool JvmBlockedCounts::resolve() {
  if (tried_) return ready_;
  tried_ = true;
  LocalFrame frame(jni_, 8);
  jclass bean = jni_->FindClass("java/lang/management/ThreadMXBean");
  jclass info = jni_->FindClass("java/lang/management/ThreadInfo");
  if (!jni_ok(jni_, "FindClass(ThreadMXBean, ThreadInfo)") || bean == nullptr || info == nullptr) return false;
  all_ids_ = jni_->GetMethodID(bean, "getAllThreadIds", "()[J");
  infos_ = jni_->GetMethodID(bean, "getThreadInfo", "([JI)[Ljava/lang/management/ThreadInfo;");
  id_ = jni_->GetMethodID(info, "getThreadId", "()J");
  blocked_ = jni_->GetMethodID(info, "getBlockedCount", "()J");
  ready_ = jni_ok(jni_, "ThreadInfo blocked count methods") && mx_.bean(jni_) != nullptr;
  return ready_;
}

std::optional<uint64_t> JvmBlockedCounts::since_last() {
  if (!resolve()) return std::nullopt;
  LocalFrame frame(jni_, 8);
  jobject bean = mx_.bean(jni_);
  jobject ids = jni_->CallObjectMethod(bean, all_ids_);
  if (!jni_ok(jni_, "ThreadMXBean.getAllThreadIds") || ids == nullptr) return std::nullopt;
  auto infos = static_cast<jobjectArray>(jni_->CallObjectMethod(bean, infos_, ids, jint{0}));
  if (!jni_ok(jni_, "ThreadMXBean.getThreadInfo(ids, 0)") || infos == nullptr) return std::nullopt;
  std::unordered_map<jlong, jlong> now;
  now.reserve(last_.size() + 16);
  uint64_t total = 0;
  const jsize n = jni_->GetArrayLength(infos);
  for (jsize i = 0; i < n; ++i) {
    jobject info = jni_->GetObjectArrayElement(infos, i);
    if (info == nullptr) continue;  // ended since getAllThreadIds
    jlong id = jni_->CallLongMethod(info, id_);
    jlong count = jni_->CallLongMethod(info, blocked_);
    jni_->DeleteLocalRef(info);
    if (!jni_ok(jni_, "ThreadInfo.getBlockedCount")) return std::nullopt;
    auto before = last_.find(id);
    jlong base = before == last_.end() ? 0 : before->second;
    if (count > base) total += static_cast<uint64_t>(count - base);
    now.emplace(id, count);
  }
  last_ = std::move(now);
  return total;
}

}  // namespace jvmsight
