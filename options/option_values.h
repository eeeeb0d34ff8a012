#pragma once
// How one option's value is read: each returns false, leaving out as it
// was, when the text is not one it accepts (the option table in
// options.cpp says what it expected).
#include <cstdint>
#include <string>
#include <string_view>

#include "options/options.h"

namespace jvmsight {

bool parse_port(std::string_view v, int& out);
// An IPv4 or IPv6 literal (brackets allowed), or localhost.
bool parse_host(std::string_view v, std::string& out);
// Milliseconds, decimals allowed (0.5 = 500 us), up to an hour, into ns.
bool parse_span_min_ms(std::string_view v, int64_t& out_ns);
bool parse_tristate(std::string_view v, Tristate& out);
bool parse_audience(std::string_view v, Details& out);
bool parse_int(std::string_view v, int min, int max, int& out);
// A rate a second from 100 to 10,000,000, or off (0).
bool parse_rate_or_off(std::string_view v, int& out);
bool parse_on_off(std::string_view v, bool& out);

}  // namespace jvmsight
