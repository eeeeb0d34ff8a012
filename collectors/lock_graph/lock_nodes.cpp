#include "collectors/lock_graph/lock_nodes.h"

#include <algorithm>

namespace jvmsight {

LockNodes::~LockNodes() {
  for (auto& [node, e] : nodes_) jni_->DeleteWeakGlobalRef(e.ref);
}

std::optional<LockVertex> LockNodes::vertex_of(jobject lock, LockKind kind) {
  const int32_t hash = lookup_.hash_of(lock);
  auto range = by_hash_.equal_range(hash);
  for (auto it = range.first; it != range.second; ++it) {
    Entry& e = nodes_.at(it->second);
    if (e.vertex.lock.kind == kind && jni_->IsSameObject(e.ref, lock)) return e.vertex;
  }
  if (nodes_.size() >= max_nodes) return std::nullopt;
  jweak ref = jni_->NewWeakGlobalRef(lock);
  if (ref == nullptr) return std::nullopt;
  Entry e;
  e.ref = ref;
  e.vertex = {next_++, {hash, lookup_.class_name_of(lock), kind}};
  by_hash_.emplace(hash, e.vertex.node);
  nodes_.emplace(e.vertex.node, e);
  return e.vertex;
}

void LockNodes::met_juc(jobject lock) {
  auto v = vertex_of(lock, LockKind::juc);
  if (!v) return;
  Entry& e = nodes_.at(v->node);
  if (e.met == 0 && ++juc_met_ > max_juc_met) forget_least_recently_met();
  e.met = ++met_clock_;
}

void LockNodes::forget_least_recently_met() {
  Entry* oldest = nullptr;
  for (auto& [node, e] : nodes_)
    if (e.met != 0 && (oldest == nullptr || e.met < oldest->met)) oldest = &e;
  if (oldest == nullptr) return;
  oldest->met = 0;
  --juc_met_;
}

std::vector<std::pair<LockVertex, jthread>> LockNodes::juc_owners() {
  std::vector<std::pair<LockVertex, jthread>> out;
  for (auto& [node, e] : nodes_) {
    if (e.met == 0) continue;
    jobject lock = jni_->NewLocalRef(e.ref);
    if (lock == nullptr) continue;  // collected
    jthread owner = lookup_.owner_of(lock);
    jni_->DeleteLocalRef(lock);
    if (owner != nullptr) out.emplace_back(e.vertex, owner);
  }
  return out;
}

std::vector<LockNode> LockNodes::sweep(const LockOrderGraph& graph) {
  std::vector<LockNode> collected, unused;
  for (auto& [node, e] : nodes_) {
    if (jni_->IsSameObject(e.ref, nullptr))
      collected.push_back(node);
    else if (e.met == 0 && !graph.uses(node))
      unused.push_back(node);
  }
  for (LockNode n : collected) erase(n);
  for (LockNode n : unused) erase(n);
  return collected;
}

void LockNodes::erase(LockNode node) {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) return;
  if (it->second.met != 0) --juc_met_;
  auto range = by_hash_.equal_range(it->second.vertex.lock.identity_hash);
  for (auto h = range.first; h != range.second; ++h) {
    if (h->second == node) {
      by_hash_.erase(h);
      break;
    }
  }
  jni_->DeleteWeakGlobalRef(it->second.ref);
  nodes_.erase(it);
}

}  // namespace jvmsight
