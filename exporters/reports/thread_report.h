#pragma once
// Thread dumps and deadlock reports as text that reads like jstack's (so
// on-call engineers recognise it) and as JSON. Pure: unit-tested without a JVM.
// Locks are named by identity hash (<0x...>, System.identityHashCode), not by
// address as jstack does: the hash is stable and matches application logs.
#include <string>
#include <vector>

#include "model/deadlock.h"

namespace jvmsight {

std::string threads_text(const std::vector<ThreadRecord>& threads);
std::string threads_json(const std::vector<ThreadRecord>& threads);

std::string deadlocks_text(const std::vector<DeadlockReport>& deadlocks);
std::string deadlocks_json(const std::vector<DeadlockReport>& deadlocks);

}  // namespace jvmsight
