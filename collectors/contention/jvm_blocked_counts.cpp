#include "collectors/contention/jvm_blocked_counts.h"

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
  waited_ = jni_->GetMethodID(info, "getWaitedCount", "()J");
  ready_ = jni_ok(jni_, "ThreadInfo blocked count methods") && mx_.bean(jni_) != nullptr;
  return ready_;
}

std::optional<std::vector<std::pair<jlong, jlong>>> JvmBlockedCounts::read(jlongArray ids, bool with_waits) {
  jobject bean = mx_.bean(jni_);
  auto infos = static_cast<jobjectArray>(jni_->CallObjectMethod(bean, infos_, ids, jint{0}));
  if (!jni_ok(jni_, "ThreadMXBean.getThreadInfo(ids, 0)") || infos == nullptr) return std::nullopt;
  std::vector<std::pair<jlong, jlong>> out;
  const jsize n = jni_->GetArrayLength(infos);
  out.reserve(static_cast<size_t>(n));
  for (jsize i = 0; i < n; ++i) {
    jobject info = jni_->GetObjectArrayElement(infos, i);
    if (info == nullptr) continue;  // ended since its id was taken
    jlong id = jni_->CallLongMethod(info, id_);
    jlong count = jni_->CallLongMethod(info, blocked_);
    if (with_waits) count += jni_->CallLongMethod(info, waited_);
    jni_->DeleteLocalRef(info);
    if (!jni_ok(jni_, "ThreadInfo.getBlockedCount")) return std::nullopt;
    out.emplace_back(id, count);
  }
  return out;
}

std::optional<uint64_t> JvmBlockedCounts::since_last() {
  if (!resolve()) return std::nullopt;
  LocalFrame frame(jni_, 8);
  auto ids = static_cast<jlongArray>(jni_->CallObjectMethod(mx_.bean(jni_), all_ids_));
  if (!jni_ok(jni_, "ThreadMXBean.getAllThreadIds") || ids == nullptr) return std::nullopt;
  auto counts = read(ids);
  if (!counts) return std::nullopt;
  std::unordered_map<jlong, jlong> now;
  now.reserve(counts->size());
  uint64_t total = 0;
  for (const auto& [id, count] : *counts) {
    auto before = last_.find(id);
    jlong base = before == last_.end() ? 0 : before->second;
    if (count > base) total += static_cast<uint64_t>(count - base);
    now.emplace(id, count);
  }
  last_ = std::move(now);
  return total;
}

std::optional<std::vector<jlong>> JvmBlockedCounts::of(const std::vector<jlong>& ids) { return counts_of(ids, false); }

std::optional<std::vector<jlong>> JvmBlockedCounts::waits_of(const std::vector<jlong>& ids) {
  return counts_of(ids, true);
}

std::optional<std::vector<jlong>> JvmBlockedCounts::counts_of(const std::vector<jlong>& ids, bool with_waits) {
  if (!resolve()) return std::nullopt;
  LocalFrame frame(jni_, 8);
  jlongArray array = jni_->NewLongArray(static_cast<jsize>(ids.size()));
  if (!jni_ok(jni_, "NewLongArray") || array == nullptr) return std::nullopt;
  jni_->SetLongArrayRegion(array, 0, static_cast<jsize>(ids.size()), ids.data());
  auto counts = read(array, with_waits);
  if (!counts) return std::nullopt;
  // getThreadInfo answers in the order asked, leaving out ended threads.
  std::vector<jlong> out(ids.size(), -1);
  size_t k = 0;
  for (size_t i = 0; i < ids.size() && k < counts->size(); ++i)
    if ((*counts)[k].first == ids[i]) out[i] = (*counts)[k++].second;
  return out;
}

}  // namespace jvmsight
