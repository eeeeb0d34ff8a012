#include "collectors/runtime/perf_data.h"

#include <cstring>
#include <string>

#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

// The layout HotSpot writes (perfMemory.hpp): a 32-byte prologue, then
// entries of a 20-byte header, the entry's name and its data.
constexpr size_t prologue_size = 32;
constexpr size_t magic_at = 0, byte_order_at = 4, entry_offset_at = 24, num_entries_at = 28;
constexpr uint8_t magic[] = {0xca, 0xfe, 0xc0, 0xc0};  // stored big-endian whatever the byte order
constexpr uint8_t little_endian = 1;
constexpr size_t entry_header_size = 20;
constexpr size_t entry_length_at = 0, name_offset_at = 4, vector_length_at = 8, data_type_at = 12, data_offset_at = 16;

uint32_t u32_at(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The entry starting at `at` names `name`, a scalar long: its value's address.
const int64_t* long_entry(PerfDataRegion r, size_t at, uint32_t length, std::string_view name) {
  const uint8_t* e = r.base + at;
  const uint32_t name_offset = u32_at(e + name_offset_at), data_offset = u32_at(e + data_offset_at);
  if (name_offset < entry_header_size || name_offset >= length) return nullptr;
  const auto* name_start = reinterpret_cast<const char*>(e + name_offset);
  const size_t room = length - name_offset;
  const size_t name_length = strnlen(name_start, room);
  if (name_length == room || std::string_view(name_start, name_length) != name) return nullptr;
  if (e[data_type_at] != 'J' || u32_at(e + vector_length_at) != 0) return nullptr;
  if (data_offset < entry_header_size || data_offset > length || length - data_offset < sizeof(int64_t)) return nullptr;
  if ((at + data_offset) % alignof(int64_t) != 0) return nullptr;
  return reinterpret_cast<const int64_t*>(e + data_offset);
}

}  // namespace

const int64_t* find_perf_long(PerfDataRegion r, std::string_view name) {
  if (r.base == nullptr || r.size < prologue_size) return nullptr;
  if (std::memcmp(r.base + magic_at, magic, sizeof magic) != 0 || r.base[byte_order_at] != little_endian)
    return nullptr;
  size_t at = u32_at(r.base + entry_offset_at);
  const uint32_t entries = u32_at(r.base + num_entries_at);
  for (uint32_t i = 0; i < entries; ++i) {
    if (at < prologue_size || at > r.size || r.size - at < entry_header_size) return nullptr;
    const uint32_t length = u32_at(r.base + at + entry_length_at);
    if (length < entry_header_size || length > r.size - at) return nullptr;
    if (const int64_t* value = long_entry(r, at, length, name)) return value;
    at += length;
  }
  return nullptr;
}

std::optional<PerfDataRegion> attach_own_perf_data(JNIEnv* jni) {
  LocalFrame frame(jni, 8);
  if (!frame.ok()) return std::nullopt;
  // JDK 9 moved the class to jdk.internal.perf; JDK 21 dropped the mode
  // argument of attach (read-only either way). lvmid 0 is this JVM.
  const char* name = "jdk/internal/perf/Perf";
  jclass perf = jni->FindClass(name);
  if (perf == nullptr) {
    jni->ExceptionClear();
    name = "sun/misc/Perf";
    perf = jni->FindClass(name);
  }
  const std::string get_signature = std::string("()L") + name + ";";
  jmethodID get = perf != nullptr ? jni->GetStaticMethodID(perf, "getPerf", get_signature.c_str()) : nullptr;
  jobject instance = get != nullptr ? jni->CallStaticObjectMethod(perf, get) : nullptr;
  if (instance == nullptr) {
    jni->ExceptionClear();
    return std::nullopt;
  }
  jobject buffer = nullptr;
  if (jmethodID attach = jni->GetMethodID(perf, "attach", "(I)Ljava/nio/ByteBuffer;")) {
    buffer = jni->CallObjectMethod(instance, attach, 0);
  } else {
    jni->ExceptionClear();
    jmethodID with_mode = jni->GetMethodID(perf, "attach", "(ILjava/lang/String;)Ljava/nio/ByteBuffer;");
    jstring mode = with_mode != nullptr ? jni->NewStringUTF("r") : nullptr;
    if (mode != nullptr) buffer = jni->CallObjectMethod(instance, with_mode, 0, mode);
  }
  // Without PerfData (-XX:-UsePerfData) the buffer is empty, or attach throws.
  jni->ExceptionClear();
  if (buffer == nullptr) return std::nullopt;
  auto* base = static_cast<const uint8_t*>(jni->GetDirectBufferAddress(buffer));
  const jlong size = jni->GetDirectBufferCapacity(buffer);
  if (base == nullptr || size < static_cast<jlong>(prologue_size)) return std::nullopt;
  return PerfDataRegion{base, static_cast<size_t>(size)};
}

}  // namespace jvmsight
