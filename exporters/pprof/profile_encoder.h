#pragma once
// A ContentionProfile as Go writes its mutex and block profiles: a
// perftools.profiles.Profile (google/pprof proto/profile.proto), sample
// types contentions/count and delay/nanoseconds, period type
// contentions/count with period 1 (the values are already scaled), each
// sample's locations leaf first; and the short text form of ?debug=1.
#include <string>
#include <string_view>

#include "model/contention_profile.h"

namespace jvmsight {

// The serialized Profile message, not yet gzipped.
std::string encode_pprof(const ContentionProfile& profile);

// For people: a summary line, then each stack, most delay first:
// "<delay_ns> <contentions> @" and one "#\tfunction (file:line)" per frame.
std::string profile_text(const ContentionProfile& profile, std::string_view title);

}  // namespace jvmsight
