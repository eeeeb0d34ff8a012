#include "agent/options.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(Options, EmptyStringGivesDefaults) {
  auto p = parse_options("");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.port, 9404);
  EXPECT_EQ(p.options.host, "0.0.0.0");
  EXPECT_EQ(p.options.portfile, "");
  EXPECT_EQ(p.options.log_level, log::Level::info);
}

TEST(Options, AllKeysParsed) {
  auto p = parse_options("port=0,host=127.0.0.1,portfile=/tmp/p,log=debug");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.port, 0);
  EXPECT_EQ(p.options.host, "127.0.0.1");
  EXPECT_EQ(p.options.portfile, "/tmp/p");
  EXPECT_EQ(p.options.log_level, log::Level::debug);
}

TEST(Options, NativeStates) {
  EXPECT_EQ(parse_options("").options.native_states, Tristate::auto_);
  EXPECT_EQ(parse_options("native_states=on").options.native_states, Tristate::on);
  EXPECT_EQ(parse_options("native_states=off").options.native_states, Tristate::off);
}

TEST(Options, JcmdQuotesAreStripped) {
  auto p = parse_options("\"port=1234,log=warn\"");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.port, 1234);
  EXPECT_EQ(p.options.log_level, log::Level::warn);
}

TEST(Options, HostForms) {
  EXPECT_EQ(parse_options("host=localhost").options.host, "127.0.0.1");
  EXPECT_EQ(parse_options("host=::1").options.host, "::1");
  EXPECT_EQ(parse_options("host=[::]").options.host, "::");
  EXPECT_TRUE(parse_options("host=10.1.2.3").ok());
}

TEST(Options, TrailingCommaIsHarmless) { EXPECT_TRUE(parse_options("port=1,").ok()); }

struct BadOption {
  const char* text;
  const char* message_part;
};

class OptionErrors : public ::testing::TestWithParam<BadOption> {};

TEST_P(OptionErrors, NamesTheProblemAndWhatIsAccepted) {
  auto p = parse_options(GetParam().text);
  EXPECT_FALSE(p.ok());
  EXPECT_NE(p.error.find(GetParam().message_part), std::string::npos) << p.error;
}

INSTANTIATE_TEST_SUITE_P(
    All, OptionErrors,
    ::testing::Values(BadOption{"bogus=1", "unknown option 'bogus' (accepted: host, port, portfile, log, "},
                      BadOption{"port", "option 'port' has no value"},
                      BadOption{"port=1,,log=info", "empty option"},
                      BadOption{"port=1,port=2", "option 'port' given twice"},
                      BadOption{"port=abc", "bad port 'abc' (expected a number from 0 to 65535"},
                      BadOption{"port=65536", "bad port '65536'"}, BadOption{"port=-1", "bad port '-1'"},
                      BadOption{"port=12x", "bad port '12x'"}, BadOption{"port=", "bad port ''"},
                      BadOption{"host=example.com", "bad host 'example.com' (expected a numeric IPv4 or IPv6"},
                      BadOption{"host=", "bad host ''"}, BadOption{"portfile=", "bad portfile ''"},
                      BadOption{"native_states=yes", "bad native_states 'yes' (expected auto, on or off)"},
                      BadOption{"log=loud", "bad log level 'loud' (expected off, error, warn, info or debug)"}));

// The list every "unknown option" message shows names exactly the keys the
// parser knows.
TEST(Options, AcceptedKeysAreTheParsedKeys) {
  std::string keys(accepted_option_keys());
  size_t count = 0;
  for (size_t pos = 0; pos < keys.size(); ++count) {
    size_t comma = keys.find(", ", pos);
    std::string key = keys.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? keys.size() : comma + 2;
    auto p = parse_options(key + "=x");  // usually a bad value, but never an unknown key
    EXPECT_EQ(p.error.find("unknown option"), std::string::npos) << key << ": " << p.error;
  }
  EXPECT_GE(count, 5u);
  EXPECT_NE(parse_options("bogus=1").error.find(keys), std::string::npos);
}

TEST(Options, LongInputIsEchoedBounded) {
  std::string key(5000, 'k');
  auto p = parse_options(key + "=1");
  EXPECT_FALSE(p.ok());
  EXPECT_LT(p.error.size(), 200u);
  EXPECT_NE(p.error.find("..."), std::string::npos);
}

}  // namespace
}  // namespace jvmsight
