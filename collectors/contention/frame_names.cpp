#include "collectors/contention/frame_names.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "common/jvm_calls.h"

namespace jvmsight {

std::string class_name_of_signature(const char* signature) {
  if (signature == nullptr) return "";
  const size_t n = std::strlen(signature);
  if (n < 3 || signature[0] != 'L' || signature[n - 1] != ';') return "";
  std::string name(signature + 1, n - 2);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

uint32_t FrameNames::function(const std::string& name, const std::string& file) {
  std::string key = name;
  key.push_back('\0');
  key += file;
  auto [it, added] = function_index_.emplace(std::move(key), static_cast<uint32_t>(functions_.size()));
  if (added) functions_.push_back({name, file});
  return it->second;
}

FrameNames::Method FrameNames::resolve(jmethodID id) {
  Method m;
  JvmtiArray<char> name(jvmti_), class_signature(jvmti_), file(jvmti_);
  jclass declaring = nullptr;
  if (jvmti_->GetMethodName(id, name.out(), nullptr, nullptr) != JVMTI_ERROR_NONE ||
      jvmti_->GetMethodDeclaringClass(id, &declaring) != JVMTI_ERROR_NONE) {
    m.function = function("[unloaded]");
    return m;
  }
  std::string class_name;
  if (jvmti_->GetClassSignature(declaring, class_signature.out(), nullptr) == JVMTI_ERROR_NONE)
    class_name = class_name_of_signature(class_signature.get());
  std::string file_name;
  if (jvmti_->GetSourceFileName(declaring, file.out()) == JVMTI_ERROR_NONE && file.get() != nullptr)
    file_name = file.get();
  jni_->DeleteLocalRef(declaring);
  m.function = function((class_name.empty() ? "[unknown class]" : class_name) + "." + name.get(), file_name);
  JvmtiArray<jvmtiLineNumberEntry> lines(jvmti_);
  jint count = 0;
  if (jvmti_->GetLineNumberTable(id, &count, lines.out()) == JVMTI_ERROR_NONE && count > 0) {
    m.lines.assign(lines.get(), lines.get() + count);
    std::sort(m.lines.begin(), m.lines.end(),
              [](const auto& a, const auto& b) { return a.start_location < b.start_location; });
  }
  return m;
}

const FrameNames::Method& FrameNames::method(jmethodID id) {
  auto found = methods_.find(id);
  if (found != methods_.end()) return found->second;
  return methods_.emplace(id, resolve(id)).first->second;
}

ProfileFrame FrameNames::frame(const jvmtiFrameInfo& f) {
  if (f.method == nullptr) return {function("[no Java frames]"), 0};
  const Method& m = method(f.method);
  ProfileFrame out;
  out.function = m.function;
  // The entry covering the bytecode index: the last that starts at or before it.
  auto after = std::upper_bound(m.lines.begin(), m.lines.end(), f.location,
                                [](jlocation at, const jvmtiLineNumberEntry& e) { return at < e.start_location; });
  if (f.location >= 0 && after != m.lines.begin()) out.line = std::prev(after)->line_number;
  return out;
}

std::vector<ProfileFrame> java_stack_frames(std::string_view lines, FrameNames& names) {
  std::vector<ProfileFrame> frames;
  while (!lines.empty()) {
    const size_t end = std::min(lines.find('\n'), lines.size());
    const std::string_view line = lines.substr(0, end);
    lines.remove_prefix(std::min(end + 1, lines.size()));
    const size_t name_end = line.find('\t');
    const size_t file_end = name_end == std::string_view::npos ? name_end : line.find('\t', name_end + 1);
    if (file_end == std::string_view::npos || name_end == 0) continue;
    int32_t number = 0;
    std::from_chars(line.data() + file_end + 1, line.data() + line.size(), number);
    const std::string name(line.substr(0, name_end)), file(line.substr(name_end + 1, file_end - name_end - 1));
    frames.push_back({names.function(name, file), std::max(number, 0)});
  }
  return frames;
}

}  // namespace jvmsight
