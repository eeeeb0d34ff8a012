#pragma once
// Potential deadlocks (lock-order inversions) and threads stuck on a lock,
// as text (the /deadlocks page, the stderr warning, the OTLP log body) and
// as JSON. Written like the deadlock report, locks named by identity hash.
// Pure: unit-tested without a JVM.
#include <string>
#include <vector>

#include "model/lock_order.h"

namespace jvmsight {

std::string inversion_text(const LockOrderInversion& inversion);
std::string stuck_text(const StuckThreadReport& stuck);

// /deadlocks: the deadlocks as before ("No deadlock found." when none),
// then the potential ones when there are any.
std::string deadlocks_page_text(const DeadlocksPage& page);
// {"potential_deadlocks":[...],"potential_count":n,"deadlocks":[...],"count":n}
std::string deadlocks_page_json(const DeadlocksPage& page);

}  // namespace jvmsight
