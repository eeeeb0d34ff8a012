#include "collectors/contention/contended_wait_spans.h"

#include <algorithm>

#include "common/clock.h"

namespace jvmsight {

size_t ContendedWaitSpans::drain() {
  std::vector<ContendedWait> waits;
  ContendedWait w;
  while (ring_.pop(w)) waits.push_back(w);
  if (waits.empty()) return 0;
  // A lock met for the first time was tagged by the callback; absorbing
  // resolves its class (the drained entries count as any drain's would).
  bool unknown =
      std::any_of(waits.begin(), waits.end(), [&](const ContendedWait& x) { return !classes_.class_of(x.lock_hash); });
  if (unknown) classes_.absorb();
  std::vector<int32_t> threads;
  for (const auto& x : waits) threads.push_back(x.thread_hash);
  std::map<int32_t, std::string> names = thread_names(threads);
  // The callbacks timed with the monotonic clock; spans carry wall-clock times.
  const int64_t wall_minus_monotonic = clock_ns(CLOCK_REALTIME) - static_cast<int64_t>(monotonic_ns());
  for (const auto& x : waits) {
    SpanRecord span;
    span.name = contended_wait_span_name;
    span.start_unix_ns = static_cast<int64_t>(x.start_ns) + wall_minus_monotonic;
    span.end_unix_ns = static_cast<int64_t>(x.end_ns) + wall_minus_monotonic;
    const std::string* cls = classes_.class_of(x.lock_hash);
    span.attributes.push_back({"lock.class", cls ? *cls : std::string("unresolved")});
    auto name = names.find(x.thread_hash);
    if (name != names.end()) span.attributes.push_back({"thread.name", name->second});
    spans_.push(std::move(span));
  }
  return waits.size();
}

std::map<int32_t, std::string> ContendedWaitSpans::thread_names(const std::vector<int32_t>& hashes) {
  std::map<int32_t, std::string> names;
  std::vector<int32_t> wanted;
  for (int32_t h : hashes)
    if (h != 0) wanted.push_back(h);
  if (wanted.empty()) return names;
  std::sort(wanted.begin(), wanted.end());
  // One pass over the live threads: a few JVM TI calls each, and only when
  // a long wait happened.
  roster_.for_each(jni_, jvmti_, [&](jthread thread, jint, bool) {
    if (names.size() == wanted.size()) return;
    jint hash = 0;
    if (jvmti_->GetObjectHashCode(thread, &hash) != JVMTI_ERROR_NONE) return;
    if (!std::binary_search(wanted.begin(), wanted.end(), hash) || names.count(hash)) return;
    jvmtiThreadInfo info{};
    if (jvmti_->GetThreadInfo(thread, &info) != JVMTI_ERROR_NONE) return;
    if (info.name) {
      names[hash] = info.name;
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));
    }
    if (info.thread_group) jni_->DeleteLocalRef(info.thread_group);
    if (info.context_class_loader) jni_->DeleteLocalRef(info.context_class_loader);
  });
  return names;
}

}  // namespace jvmsight
