// ThreadRoster against a fake JVM: just enough of the JNI and JVM TI
// function tables to list threads and read their fields, with every global
// reference counted, so a reference the roster forgets to delete fails here.
#include "collectors/threads/thread_roster.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <map>
#include <vector>

namespace jvmsight {
namespace {

struct FakeObject {
  jlong tid = 0;
  jint status = 0;
  jboolean daemon = JNI_FALSE;
  FakeObject* holder = nullptr;   // Thread.holder (JDK 19+ layout)
  std::vector<jobject> elements;  // a Thread[]
  std::vector<jint> ints;         // an int[]
};

// Field ids are only compared, never dereferenced.
FakeObject tid_field, holder_field, status_field, daemon_field, park_blocker_field, thread_class, holder_class;

struct FakeJvm {
  bool holder_layout = true;         // JDK 19+: threadStatus lives in Thread.FieldHolder
  std::vector<FakeObject*> threads;  // what GetAllThreads lists
  FakeObject* current = nullptr;     // the agent thread
  std::map<FakeObject*, int> global_refs;
  std::deque<FakeObject> arrays;  // every array made, never collected
  int daemon_reads = 0;
  int status_reads = 0;  // GetIntField calls
  int thread_arrays = 0;

  int outstanding() const {
    int n = 0;
    for (const auto& [obj, count] : global_refs) n += count;
    return n;
  }
};
FakeJvm* jvm = nullptr;

FakeObject* obj(jobject o) { return reinterpret_cast<FakeObject*>(o); }
jobject ref(FakeObject* o) { return reinterpret_cast<jobject>(o); }
jfieldID field(FakeObject* f) { return reinterpret_cast<jfieldID>(f); }

jint JNICALL push_local_frame(JNIEnv*, jint) { return 0; }
jobject JNICALL pop_local_frame(JNIEnv*, jobject) { return nullptr; }
jclass JNICALL find_class(JNIEnv*, const char* name) {
  if (std::strcmp(name, "java/lang/Thread") == 0) return reinterpret_cast<jclass>(&thread_class);
  if (std::strcmp(name, "java/lang/Thread$FieldHolder") == 0) return reinterpret_cast<jclass>(&holder_class);
  return nullptr;
}
jfieldID JNICALL get_field_id(JNIEnv*, jclass cls, const char* name, const char*) {
  const bool on_holder = cls == reinterpret_cast<jclass>(&holder_class);
  if (!on_holder && std::strcmp(name, "tid") == 0) return field(&tid_field);
  if (!on_holder && std::strcmp(name, "parkBlocker") == 0) return field(&park_blocker_field);
  if (!on_holder && std::strcmp(name, "holder") == 0) return jvm->holder_layout ? field(&holder_field) : nullptr;
  if (std::strcmp(name, "threadStatus") == 0 && on_holder == jvm->holder_layout) return field(&status_field);
  if (std::strcmp(name, "daemon") == 0 && on_holder == jvm->holder_layout) return field(&daemon_field);
  return nullptr;
}
jboolean JNICALL exception_check(JNIEnv*) { return JNI_FALSE; }
void JNICALL exception_clear(JNIEnv*) {}
void JNICALL delete_local_ref(JNIEnv*, jobject) {}
jlong JNICALL get_long_field(JNIEnv*, jobject o, jfieldID f) {
  EXPECT_EQ(f, field(&tid_field));
  return obj(o)->tid;
}
jobject JNICALL get_object_field(JNIEnv*, jobject o, jfieldID f) {
  EXPECT_EQ(f, field(&holder_field));
  return ref(obj(o)->holder);
}
jint JNICALL get_int_field(JNIEnv*, jobject o, jfieldID f) {
  EXPECT_EQ(f, field(&status_field));
  ++jvm->status_reads;
  return obj(o)->status;
}
jobjectArray JNICALL new_object_array(JNIEnv*, jsize n, jclass cls, jobject) {
  EXPECT_EQ(cls, reinterpret_cast<jclass>(&thread_class));
  ++jvm->thread_arrays;
  jvm->arrays.emplace_back().elements.resize(static_cast<size_t>(n));
  return reinterpret_cast<jobjectArray>(&jvm->arrays.back());
}
void JNICALL set_object_array_element(JNIEnv*, jobjectArray a, jsize i, jobject o) {
  obj(a)->elements.at(static_cast<size_t>(i)) = o;
}
jintArray JNICALL new_int_array(JNIEnv*, jsize n) {
  jvm->arrays.emplace_back().ints.resize(static_cast<size_t>(n));
  return reinterpret_cast<jintArray>(&jvm->arrays.back());
}
void JNICALL get_int_array_region(JNIEnv*, jintArray a, jsize start, jsize n, jint* out) {
  std::memcpy(out, obj(a)->ints.data() + start, static_cast<size_t>(n) * sizeof(jint));
}

// JvmsightLockScan.statuses, in C++.
struct FakeGather : ThreadStatusGather {
  bool fails = false;
  int calls = 0;
  bool gather(jobjectArray threads, jintArray out) override {
    ++calls;
    if (fails) return false;
    const auto& elements = obj(threads)->elements;
    for (size_t i = 0; i < elements.size(); ++i) {
      FakeObject* t = obj(elements[i]);
      obj(out)->ints.at(i) = (t->holder != nullptr ? t->holder : t)->status;
    }
    return true;
  }
};
jboolean JNICALL get_boolean_field(JNIEnv*, jobject o, jfieldID f) {
  EXPECT_EQ(f, field(&daemon_field));
  ++jvm->daemon_reads;
  return obj(o)->daemon;
}
jobject JNICALL new_global_ref(JNIEnv*, jobject o) {
  if (o != nullptr) ++jvm->global_refs[obj(o)];
  return o;
}
void JNICALL delete_global_ref(JNIEnv*, jobject o) {
  ASSERT_GT(jvm->global_refs[obj(o)], 0) << "deleted a global reference twice";
  --jvm->global_refs[obj(o)];
}

jvmtiError JNICALL get_all_threads(jvmtiEnv*, jint* count, jthread** threads) {
  *count = static_cast<jint>(jvm->threads.size());
  *threads = new jthread[jvm->threads.size() + 1];
  for (size_t i = 0; i < jvm->threads.size(); ++i) (*threads)[i] = reinterpret_cast<jthread>(jvm->threads[i]);
  return JVMTI_ERROR_NONE;
}
jvmtiError JNICALL get_current_thread(jvmtiEnv*, jthread* t) {
  *t = reinterpret_cast<jthread>(jvm->current);
  return JVMTI_ERROR_NONE;
}
jvmtiError JNICALL deallocate(jvmtiEnv*, unsigned char* mem) {
  delete[] reinterpret_cast<jthread*>(mem);
  return JVMTI_ERROR_NONE;
}

class ThreadRosterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    jvm = &world_;
    jni_table_.PushLocalFrame = push_local_frame;
    jni_table_.PopLocalFrame = pop_local_frame;
    jni_table_.FindClass = find_class;
    jni_table_.GetFieldID = get_field_id;
    jni_table_.ExceptionCheck = exception_check;
    jni_table_.ExceptionClear = exception_clear;
    jni_table_.DeleteLocalRef = delete_local_ref;
    jni_table_.GetLongField = get_long_field;
    jni_table_.GetObjectField = get_object_field;
    jni_table_.GetIntField = get_int_field;
    jni_table_.GetBooleanField = get_boolean_field;
    jni_table_.NewGlobalRef = new_global_ref;
    jni_table_.DeleteGlobalRef = delete_global_ref;
    jni_table_.NewObjectArray = new_object_array;
    jni_table_.SetObjectArrayElement = set_object_array_element;
    jni_table_.NewIntArray = new_int_array;
    jni_table_.GetIntArrayRegion = get_int_array_region;
    jni_.functions = &jni_table_;
    jvmti_table_.GetAllThreads = get_all_threads;
    jvmti_table_.GetCurrentThread = get_current_thread;
    jvmti_table_.Deallocate = deallocate;
    jvmti_.functions = &jvmti_table_;
    world_.current = &agent_;
  }
  void TearDown() override { jvm = nullptr; }

  // A started thread with its status in a FieldHolder (or on itself).
  FakeObject* thread(jlong tid, jint status) {
    auto* t = &objects_[tid];
    t->tid = tid;
    if (world_.holder_layout) {
      holders_[tid].status = status;
      t->holder = &holders_[tid];
    } else {
      t->status = status;
    }
    world_.threads.push_back(t);
    return t;
  }
  std::vector<jlong> visited() {
    std::vector<jlong> ids;
    EXPECT_TRUE(roster_.for_each(&jni_, &jvmti_, [&](jthread t, jint, bool) { ids.push_back(obj(t)->tid); }));
    return ids;
  }

  static constexpr jint runnable = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
  FakeJvm world_;
  JNINativeInterface_ jni_table_{};
  JNIEnv jni_{};
  jvmtiInterface_1_ jvmti_table_{};
  jvmtiEnv jvmti_{};
  FakeObject agent_{999, runnable, JNI_FALSE, nullptr, {}, {}};
  std::map<jlong, FakeObject> objects_, holders_;
  ThreadRoster roster_;
};

TEST_F(ThreadRosterTest, ListsLiveThreadsButTheAgentsOwn) {
  world_.threads.push_back(&agent_);
  thread(1, runnable);
  thread(2, JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER);
  thread(3, 0);  // listed but not started yet
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  EXPECT_EQ(world_.outstanding(), 6);  // a thread and a holder for each listed thread, the unstarted one too
}

// The daemon flag comes from the status holder (both layouts), read when the
// thread is listed, not on every walk: a started thread's flag never changes.
TEST_F(ThreadRosterTest, DaemonFlagReadOncePerListing) {
  for (bool holder_layout : {true, false}) {
    world_ = FakeJvm{};
    world_.holder_layout = holder_layout;
    world_.current = &agent_;
    ThreadRoster roster;
    thread(1, runnable);
    thread(2, runnable);
    (holder_layout ? holders_[2] : objects_[2]).daemon = JNI_TRUE;
    std::map<jlong, bool> daemon;
    for (int walk = 0; walk < 3; ++walk)
      EXPECT_TRUE(roster.for_each(&jni_, &jvmti_, [&](jthread t, jint, bool d) { daemon[obj(t)->tid] = d; }));
    EXPECT_EQ(daemon, (std::map<jlong, bool>{{1, false}, {2, true}})) << holder_layout;
    EXPECT_EQ(world_.daemon_reads, 2) << holder_layout;
  }
}

TEST_F(ThreadRosterTest, ThreadWhoseStatusHolderReadsNullKeepsNoReference) {
  thread(1, runnable);
  thread(2, runnable)->holder = nullptr;
  EXPECT_EQ(visited(), (std::vector<jlong>{1}));
  EXPECT_EQ(world_.outstanding(), 2);  // thread 1 and its holder; nothing of thread 2
  EXPECT_EQ(world_.global_refs[&objects_[2]], 0);
}

TEST_F(ThreadRosterTest, EndedThreadsReleaseTheirReferences) {
  thread(1, runnable);
  FakeObject* ending = thread(2, runnable);
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  ending->holder->status = JVMTI_THREAD_STATE_TERMINATED;
  EXPECT_EQ(visited(), (std::vector<jlong>{1}));  // skipped, and the next update refreshes
  world_.threads.pop_back();                      // GetAllThreads no longer lists it
  EXPECT_EQ(visited(), (std::vector<jlong>{1}));
  EXPECT_EQ(world_.global_refs[&objects_[2]], 0);
  EXPECT_EQ(world_.global_refs[&holders_[2]], 0);
  EXPECT_EQ(world_.outstanding(), 2);
}

TEST_F(ThreadRosterTest, TakesANewListOnlyWhenAThreadStartIsAnnounced) {
  thread(1, runnable);
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  const uint64_t first = roster_.version();
  thread(2, runnable);  // not announced by a ThreadStart event yet
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  EXPECT_EQ(roster_.version(), first);
  EXPECT_EQ(roster_.threads().size(), 1u);
  roster_.on_thread_start();
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  EXPECT_GT(roster_.version(), first);
  EXPECT_EQ(roster_.threads().size(), 2u);
  EXPECT_EQ(world_.outstanding(), 4);  // thread 1 kept its references, thread 2 got new ones
}

TEST_F(ThreadRosterTest, MinIntervalDefersARefresh) {
  thread(1, runnable);
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  thread(2, runnable);
  roster_.on_thread_start();
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_, std::chrono::hours(1)));
  EXPECT_EQ(roster_.threads().size(), 1u);
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  EXPECT_EQ(roster_.threads().size(), 2u);
}

TEST_F(ThreadRosterTest, Jdk17LayoutKeepsOneReferencePerThread) {
  world_.holder_layout = false;
  thread(1, runnable);
  thread(2, JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_PARKED);
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  EXPECT_EQ(world_.outstanding(), 2);
  EXPECT_EQ(roster_.status(&jni_, 1), JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_PARKED);
}

// With a gather (the Java pass), a walk reads every status word in one
// call on a Thread[] made once per list, and no field per thread; ending
// threads are still skipped and make the next update take a new list.
TEST_F(ThreadRosterTest, GatherReadsAllStatusWordsInOneCall) {
  FakeGather gather;
  roster_.set_status_gather(&gather);
  thread(1, runnable);
  FakeObject* ending = thread(2, JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_PARKED);
  thread(3, 0);  // not started yet
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  EXPECT_EQ(gather.calls, 2);
  EXPECT_EQ(world_.status_reads, 0);
  EXPECT_EQ(world_.thread_arrays, 1);
  EXPECT_EQ(world_.outstanding(), 6 + 2);  // a thread and a holder each, the Thread[] and the int[]

  ending->holder->status = JVMTI_THREAD_STATE_TERMINATED;
  EXPECT_EQ(visited(), (std::vector<jlong>{1}));
  world_.threads.erase(world_.threads.begin() + 1);  // GetAllThreads no longer lists it
  const uint64_t before = roster_.version();
  EXPECT_EQ(visited(), (std::vector<jlong>{1}));
  EXPECT_GT(roster_.version(), before);
  EXPECT_EQ(world_.thread_arrays, 2);      // the new list's
  EXPECT_EQ(world_.outstanding(), 4 + 2);  // the old arrays released with thread 2
  EXPECT_EQ(world_.status_reads, 0);
}

TEST_F(ThreadRosterTest, FailingGatherFallsBackToFieldReadsForGood) {
  FakeGather gather;
  gather.fails = true;
  roster_.set_status_gather(&gather);
  thread(1, runnable);
  thread(2, JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_PARKED);
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  EXPECT_EQ(visited(), (std::vector<jlong>{1, 2}));
  EXPECT_EQ(gather.calls, 1);
  EXPECT_EQ(world_.status_reads, 4);
}

// The deadlock check's Java pass shares the list's one Thread[].
TEST_F(ThreadRosterTest, ThreadArrayMadeOncePerList) {
  thread(1, runnable);
  thread(2, runnable);
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  jobjectArray array = roster_.thread_array(&jni_);
  ASSERT_NE(array, nullptr);
  EXPECT_EQ(roster_.thread_array(&jni_), array);
  EXPECT_EQ(obj(array)->elements, (std::vector<jobject>{ref(&objects_[1]), ref(&objects_[2])}));
  EXPECT_EQ(world_.thread_arrays, 1);
  EXPECT_EQ(world_.global_refs[obj(array)], 1);
  roster_.on_thread_start();
  ASSERT_TRUE(roster_.update(&jni_, &jvmti_));
  EXPECT_EQ(world_.global_refs[obj(array)], 0);
}

// The thread pools' watcher: told of each thread once when it joins (its
// mark then travels with it through every new list and walk) and once when
// it leaves, while its reference is still held.
TEST_F(ThreadRosterTest, WatcherIsToldOfJoinsAndLeavesAndMarksStay) {
  struct Watcher : RosterWatcher {
    std::vector<jlong> joins, leaves;
    std::map<uint32_t, jlong> marked;
    uint32_t joined(JNIEnv*, jthread t) override {
      joins.push_back(obj(t)->tid);
      const auto mark = static_cast<uint32_t>(100 + obj(t)->tid);
      marked[mark] = obj(t)->tid;
      return mark;
    }
    void left(JNIEnv*, jthread t, uint32_t mark) override {
      EXPECT_GT(jvm->global_refs[obj(t)], 0) << "told after its reference went";
      EXPECT_EQ(marked.at(mark), obj(t)->tid);
      leaves.push_back(obj(t)->tid);
    }
  } watcher;
  roster_.set_watcher(&watcher);
  thread(1, runnable);
  thread(2, runnable);
  auto walk = [&] {
    std::map<jlong, uint32_t> marks;
    EXPECT_TRUE(roster_.for_each(&jni_, &jvmti_, [&](jthread t, jint, bool, uint32_t m) { marks[obj(t)->tid] = m; }));
    return marks;
  };
  EXPECT_EQ(walk(), (std::map<jlong, uint32_t>{{1, 101}, {2, 102}}));
  thread(3, runnable);
  world_.threads.erase(world_.threads.begin());  // thread 1 ended
  roster_.on_thread_start();
  EXPECT_EQ(walk(), (std::map<jlong, uint32_t>{{2, 102}, {3, 103}}));
  EXPECT_EQ(walk(), (std::map<jlong, uint32_t>{{2, 102}, {3, 103}}));
  EXPECT_EQ(watcher.joins, (std::vector<jlong>{1, 2, 3}));
  EXPECT_EQ(watcher.leaves, (std::vector<jlong>{1}));
  EXPECT_EQ(roster_.mark(0), 102u);
}

}  // namespace
}  // namespace jvmsight
