#include "collectors/threads/thread_pool_collector.h"

#include <algorithm>

#include "collectors/threads/thread_pool_name.h"
#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

// Longer names are cut: a label value stays bounded.
constexpr jsize max_name_units = 256;

}  // namespace

ThreadPoolCollector::ThreadPoolCollector(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, ThreadMxBean& mx,
                                         EndedThreadRing& ended, size_t cap, bool ids_in_a_list)
    : jvmti_(jvmti), jni_(jni), roster_(roster), mx_(mx), ended_(ended), pools_(cap), cpu_(ids_in_a_list) {
  LocalFrame frame(jni, 2);
  jclass thread = jni->FindClass("java/lang/Thread");
  get_name_ = thread != nullptr ? jni->GetMethodID(thread, "getName", "()Ljava/lang/String;") : nullptr;
  if (!jni_ok(jni, "Thread.getName")) get_name_ = nullptr;
}

std::string ThreadPoolCollector::name_of(JNIEnv* jni, jthread thread) {
  if (get_name_ == nullptr) return "";
  auto name = static_cast<jstring>(jni->CallObjectMethod(thread, get_name_));
  if (jni->ExceptionCheck() || name == nullptr) {
    jni->ExceptionClear();
    return "";
  }
  jchar units[max_name_units];
  const jsize n = std::min(jni->GetStringLength(name), max_name_units);
  jni->GetStringRegion(name, 0, n, units);
  jni->DeleteLocalRef(name);
  return utf8_of_utf16(reinterpret_cast<const uint16_t*>(units), static_cast<size_t>(n));
}

uint32_t ThreadPoolCollector::joined(JNIEnv* jni, jthread thread) {
  jint hash = 0;
  jvmti_->GetObjectHashCode(thread, &hash);
  return pools_.add_thread(pool_of(name_of(jni, thread)), hash, roster_.layout().id(jni, thread));
}

void ThreadPoolCollector::left(JNIEnv*, jthread, uint32_t mark) {
  // Its ThreadEnd record came before the JVM took it off its list.
  drain_ended();
  pools_.remove_thread(mark);
}

void ThreadPoolCollector::drain_ended() {
  for (EndedThread e; ended_.pop(e);) pools_.thread_ended(e.hash, e.cpu_ns);
}

void ThreadPoolCollector::start_reading() {
  ids_.clear();
  marks_.clear();
  next_ = 0;
  reading_ = true;
  reading_cpu_ = {};
  if (!roster_.update(jni_, jvmti_)) return;
  drain_ended();
  const auto& threads = roster_.threads();
  for (size_t i = 0; i < threads.size(); ++i) {
    const uint32_t mark = roster_.mark(i);
    if (mark == ThreadRoster::no_mark) continue;
    pools_.rename(mark, pool_of(name_of(jni_, threads[i])));
    ids_.push_back(pools_.tid_of(mark));
    marks_.push_back(mark);
  }
  times_.resize(ids_.size());
}

// True once every id was read.
bool ThreadPoolCollector::continue_reading() {
  const auto start = BackgroundRefresh::thread_cpu();
  const size_t per_call = cpu_.ids_per_call(ids_.size());
  while (next_ < ids_.size() && BackgroundRefresh::thread_cpu() - start < step_budget) {
    const size_t count = std::min(per_call, ids_.size() - next_);
    cpu_.read(jni_, mx_, &ids_[next_], count, ids_.size(), &times_[next_]);
    for (size_t i = next_; i < next_ + count; ++i)
      if (pools_.names(marks_[i], ids_[i])) pools_.read_cpu(marks_[i], times_[i]);  // not a mark given anew since
    next_ += count;
  }
  return next_ == ids_.size();
}

void ThreadPoolCollector::refresh() {
  if (!reading_ && !refresh_.due(BackgroundRefresh::Clock::now())) return;
  const auto cpu_start = BackgroundRefresh::thread_cpu();
  if (!reading_) start_reading();
  const bool finished = continue_reading();
  reading_cpu_ += BackgroundRefresh::thread_cpu() - cpu_start;
  if (!finished) return;
  drain_ended();
  pools_.settle();
  reading_ = false;
  refresh_.done(BackgroundRefresh::Clock::now(), reading_cpu_);
}

// Never reads on the scrape's path: the first collections have counts but
// no CPU until the background's first reading, a tick later.
void ThreadPoolCollector::collect(MetricFamilies& out) {
  refresh_.demanded(BackgroundRefresh::Clock::now());
  pools_.add_families(out);
  refresh_.add_families(out, "jvmsight_thread_pool_cpu", BackgroundRefresh::Clock::now());
}

}  // namespace jvmsight
