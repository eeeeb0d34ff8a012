// The option string: every key's accepted forms and errors, forgiving
// blanks, bounded messages.
#include "options/options.h"

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>

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

TEST(Options, EndedThreadCpu) {
  EXPECT_EQ(parse_options("").options.ended_thread_cpu, Tristate::auto_);
  EXPECT_EQ(parse_options("ended_thread_cpu=on").options.ended_thread_cpu, Tristate::on);
  EXPECT_EQ(parse_options("ended_thread_cpu=off").options.ended_thread_cpu, Tristate::off);
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

void PrintTo(const BadOption& b, std::ostream* os) { *os << '"' << b.text << '"'; }

// "port=1,,log=info" -> "3_port_1__log_info": the case names itself when it fails.
std::string bad_option_name(const ::testing::TestParamInfo<BadOption>& i) {
  std::string name = std::to_string(i.index) + "_";
  for (const char* c = i.param.text; *c; ++c) name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  return name;
}

class OptionErrors : public ::testing::TestWithParam<BadOption> {};

TEST_P(OptionErrors, NamesTheProblemAndWhatIsAccepted) {
  auto p = parse_options(GetParam().text);
  EXPECT_FALSE(p.ok());
  EXPECT_NE(p.error.find(GetParam().message_part), std::string::npos) << p.error;
}

INSTANTIATE_TEST_SUITE_P(
    All, OptionErrors,
    ::testing::Values(BadOption{"bogus=1", "unknown option 'bogus' (accepted: host, port, portfile, log, "},
                      BadOption{"port", "option 'port' has no value"}, BadOption{"port=1,,log=info", "empty option"},
                      BadOption{"port=1,port=2", "option 'port' given twice"},
                      BadOption{"port=abc", "bad port 'abc' (expected a number from 0 to 65535"},
                      BadOption{"port=65536", "bad port '65536'"}, BadOption{"port=-1", "bad port '-1'"},
                      BadOption{"port=12x", "bad port '12x'"}, BadOption{"port=", "bad port ''"},
                      BadOption{"host=example.com", "bad host 'example.com' (expected a numeric IPv4 or IPv6"},
                      BadOption{"host=", "bad host ''"}, BadOption{"portfile=", "bad portfile ''"},
                      BadOption{"native_states=yes", "bad native_states 'yes' (expected auto, on or off)"},
                      BadOption{"ended_thread_cpu=1", "bad ended_thread_cpu '1' (expected auto, on or off; auto: on"},
                      BadOption{"log=loud", "bad log level 'loud' (expected off, error, warn, info or debug)"}),
    bad_option_name);

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
  EXPECT_LT(p.error.size(), 150u + accepted_option_keys().size());  // the 5000-char key is not echoed
  EXPECT_NE(p.error.find("..."), std::string::npos);
}

TEST(LockOptions, DefaultsServeDetailsAndCheckTwiceASecond) {
  auto p = parse_options("");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.details, Details::local);  // names and stacks: this machine only
  EXPECT_EQ(p.options.deadlock_check_ms, 500);
  EXPECT_EQ(p.options.lock_classes, 20);
  EXPECT_EQ(p.options.stuck_threshold_ms, 60000);  // a minute on one lock: stuck
}

TEST(LockOptions, ParsesEachLockOption) {
  auto p = parse_options("details=off,deadlock_check_ms=250,lock_classes=5");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.details, Details::off);
  EXPECT_EQ(p.options.deadlock_check_ms, 250);
  EXPECT_EQ(p.options.lock_classes, 5);
  EXPECT_EQ(parse_options("details=on").options.details, Details::on);
  EXPECT_EQ(parse_options("details=local").options.details, Details::local);
  EXPECT_NE(parse_options("details=yes").error.find("bad details 'yes' (expected local, on or off"), std::string::npos);
  EXPECT_EQ(parse_options("deadlock_check_ms=0").options.deadlock_check_ms, 0);
}

void expect_error(const std::string& text, const std::string& fragment) {
  auto p = parse_options(text);
  EXPECT_FALSE(p.ok()) << text;
  EXPECT_NE(p.error.find(fragment), std::string::npos) << text << " -> " << p.error;
}

TEST(LockOptions, BadDetailsNamesTheAcceptedValues) {
  expect_error("details=yes", "bad details 'yes' (expected local, on or off");
  expect_error("details=", "bad details ''");
}

TEST(LockOptions, StuckThresholdFromASecondToADay) {
  EXPECT_EQ(parse_options("stuck_threshold_ms=1000").options.stuck_threshold_ms, 1000);
  EXPECT_EQ(parse_options("stuck_threshold_ms=86400000").options.stuck_threshold_ms, 86400000);
  expect_error("stuck_threshold_ms=999", "bad stuck_threshold_ms '999' (expected milliseconds from 1000 to 86400000");
  expect_error("stuck_threshold_ms=86400001", "bad stuck_threshold_ms");
  expect_error("stuck_threshold_ms=1m", "bad stuck_threshold_ms");
}

TEST(LockOptions, BadDeadlockCheckIntervalIsRejected) {
  expect_error("deadlock_check_ms=abc", "bad deadlock_check_ms 'abc'");
  expect_error("deadlock_check_ms=10", "from 50 to 60000");
  expect_error("deadlock_check_ms=60001", "bad deadlock_check_ms");
  expect_error("deadlock_check_ms=-1", "bad deadlock_check_ms");
  expect_error("deadlock_check_ms=5x", "bad deadlock_check_ms");
  expect_error("deadlock_check_ms=", "bad deadlock_check_ms ''");
}

TEST(LockOptions, BadLockClassesIsRejected) {
  expect_error("lock_classes=0", "bad lock_classes '0'");
  expect_error("lock_classes=1001", "from 1 to 1000");
  expect_error("lock_classes=many", "bad lock_classes");
}

TEST(LockOptions, ContentionEventsCanBeTurnedOff) {
  EXPECT_TRUE(parse_options("").options.contention);
  EXPECT_FALSE(parse_options("contention=off").options.contention);
  expect_error("contention=no", "bad contention 'no' (expected on or off");
}

TEST(LockOptions, ContentionSamplingIsARateOrOff) {
  EXPECT_EQ(parse_options("").options.contention_sampling, 1000);
  EXPECT_EQ(parse_options("contention_sampling=2500").options.contention_sampling, 2500);
  EXPECT_EQ(parse_options("contention_sampling=off").options.contention_sampling, 0);
  expect_error("contention_sampling=0", "bad contention_sampling '0' (expected a rate from 100 to 10000000");
  expect_error("contention_sampling=on", "bad contention_sampling 'on'");
}

TEST(ThreadOptions, PinningIsOffUnlessSaid) {
  EXPECT_EQ(parse_options("").options.pinning, Tristate::off);
  EXPECT_EQ(parse_options("pinning=auto").options.pinning, Tristate::auto_);
  EXPECT_EQ(parse_options("pinning=off").options.pinning, Tristate::off);
  EXPECT_EQ(parse_options("pinning=on").options.pinning, Tristate::on);
  expect_error("pinning=maybe", "pinning");
}

TEST(ProfileOptions, OnByDefaultLocalOrOffAndARateInMicroseconds) {
  EXPECT_EQ(parse_options("").options.profiles, Details::on);
  EXPECT_EQ(parse_options("profiles=local").options.profiles, Details::local);
  EXPECT_EQ(parse_options("profiles=off").options.profiles, Details::off);
  EXPECT_EQ(parse_options("").options.profile_rate_ns, 100'000);
  EXPECT_EQ(parse_options("profile_rate_us=0").options.profile_rate_ns, 0);
  EXPECT_EQ(parse_options("profile_rate_us=1000000").options.profile_rate_ns, 1'000'000'000);
  expect_error("profiles=yes", "on, local or off");
  for (const char* bad : {"profile_rate_us=-1", "profile_rate_us=1000001", "profile_rate_us=1.5", "profile_rate_us="})
    expect_error(bad, "microseconds from 0 to 1000000");
}

// On by default: the count costs nothing per thread (OPTIONS.md).
TEST(ThreadOptions, VirtualThreadStartsOnUnlessTurnedOff) {
  EXPECT_TRUE(parse_options("").options.virtual_thread_starts);
  EXPECT_TRUE(parse_options("virtual_thread_starts=on").options.virtual_thread_starts);
  EXPECT_FALSE(parse_options("virtual_thread_starts=off").options.virtual_thread_starts);
  expect_error("virtual_thread_starts=yes", "virtual_thread_starts");
}

TEST(ThreadOptions, VirtualThreadChurnIsARateOrOff) {
  EXPECT_EQ(parse_options("").options.virtual_thread_churn, 1000);
  EXPECT_EQ(parse_options("virtual_thread_churn=off").options.virtual_thread_churn, 0);
  EXPECT_EQ(parse_options("virtual_thread_churn=100").options.virtual_thread_churn, 100);
  EXPECT_EQ(parse_options("virtual_thread_churn=10000000").options.virtual_thread_churn, 10'000'000);
  for (const char* bad : {"virtual_thread_churn=99", "virtual_thread_churn=0", "virtual_thread_churn=on",
                          "virtual_thread_churn=10000001", "virtual_thread_churn="})
    expect_error(bad, "virtual-thread starts a second");
}

TEST(ThreadOptions, ThreadPoolsIsACapOrOff) {
  EXPECT_EQ(parse_options("").options.thread_pools, 50);
  EXPECT_EQ(parse_options("thread_pools=200").options.thread_pools, 200);
  EXPECT_EQ(parse_options("thread_pools=0").options.thread_pools, 0);
  expect_error("thread_pools=1001", "bad thread_pools '1001' (expected a number from 0 to 1000");
  expect_error("thread_pools=all", "bad thread_pools 'all'");
  expect_error("thread_pools=-1", "bad thread_pools");
}

TEST(LockOptions, UnknownKeyListsTheLockOptions) {
  expect_error("deadlocks=on",
               "details, deadlock_check_ms, stuck_threshold_ms, lock_classes, contention, contention_sampling");
  expect_error("details=on,details=off", "given twice");
}

}  // namespace
}  // namespace jvmsight

namespace jvmsight {
namespace {

TEST(RuntimeOptions, ClientJavaNamesDefaultToBothGenerations) {
  EXPECT_EQ(parse_options("").options.client_java_names, ClientJavaNames::both);
  EXPECT_EQ(parse_options("client_java_names=0.x").options.client_java_names, ClientJavaNames::v0);
  EXPECT_EQ(parse_options("client_java_names=1.x").options.client_java_names, ClientJavaNames::v1);
  EXPECT_EQ(parse_options("client_java_names=off").options.client_java_names, ClientJavaNames::off);
  EXPECT_NE(
      parse_options("client_java_names=2").error.find("bad client_java_names '2' (expected both, 0.x, 1.x or off"),
      std::string::npos);
}

TEST(RuntimeOptions, ConstantLabelsKeepTheirOrderAndValues) {
  auto p = parse_options("label.env=prod,port=0,label.team=pay ments");
  ASSERT_TRUE(p.ok()) << p.error;
  ASSERT_EQ(p.options.labels.size(), 2u);
  EXPECT_EQ(p.options.labels[0].name, "env");
  EXPECT_EQ(p.options.labels[0].value, "prod");
  EXPECT_EQ(p.options.labels[1].name, "team");
  EXPECT_EQ(p.options.labels[1].value, "pay ments");
}

TEST(RuntimeOptions, BadConstantLabelsAreNamed) {
  EXPECT_NE(parse_options("label.1x=a").error.find("bad label name '1x'"), std::string::npos);
  EXPECT_NE(parse_options("label.__name__=a").error.find("bad label name '__name__'"), std::string::npos);
  EXPECT_NE(parse_options("label.=a").error.find("bad label name ''"), std::string::npos);
  EXPECT_NE(parse_options("label.a-b=a").error.find("bad label name 'a-b'"), std::string::npos);
  EXPECT_NE(parse_options("label.env=a,label.env=b").error.find("option 'label.env' given twice"), std::string::npos);
  EXPECT_NE(parse_options("label.env=" + std::string(300, 'x')).error.find("over 256 characters"), std::string::npos);
}

TEST(RuntimeOptions, ConstantLabelsAreBoundedInCountAndSize) {
  auto labels = [](int count, size_t value_size) {
    std::string text;
    for (int i = 0; i < count; ++i) text += "label.l" + std::to_string(i) + "=" + std::string(value_size, 'v') + ",";
    return parse_options(text);
  };
  EXPECT_TRUE(labels(32, 8).ok()) << labels(32, 8).error;
  EXPECT_EQ(labels(33, 8).error,
            "too many constant labels: at most 32 label.<name> options of 2048 bytes in all (names and values); 'l32' "
            "is over");
  EXPECT_TRUE(labels(8, 250).ok());  // 8 x ~252 bytes: under 2048
  EXPECT_NE(labels(9, 250).error.find("'l8' is over"), std::string::npos) << labels(9, 250).error;
  EXPECT_FALSE(labels(5000, 1).ok());  // 5,000 labels once made /metrics 12.5 MB
}

// What users type: blanks around items, keys and values do not count.
TEST(ForgivingOptions, BlanksAroundCommasAndEqualsAreIgnored) {
  auto p = parse_options("port=9405, log=warn ,  host = 127.0.0.1 ,\tlabel.env = prod ");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.port, 9405);
  EXPECT_EQ(p.options.log_level, log::Level::warn);
  EXPECT_EQ(p.options.host, "127.0.0.1");
  ASSERT_EQ(p.options.labels.size(), 1u);
  EXPECT_EQ(p.options.labels[0].name, "env");
  EXPECT_EQ(p.options.labels[0].value, "prod");
  EXPECT_TRUE(parse_options(" \"port=1, log=warn\" ").ok());  // jcmd quotes, blanks outside them
  EXPECT_TRUE(parse_options("port=1, ").ok());                // trailing comma and blank
}

TEST(ForgivingOptions, BlanksInsideAValueStay) {
  auto p = parse_options("portfile= /tmp/my port file ,port=0");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.portfile, "/tmp/my port file");
}

TEST(ForgivingOptions, BlankItemsAndBlankValuesAreStillErrors) {
  EXPECT_NE(parse_options("port=1, ,log=info").error.find("empty option"), std::string::npos);
  EXPECT_NE(parse_options("port= ").error.find("bad port ''"), std::string::npos);
  EXPECT_NE(parse_options("port=1, port = 2").error.find("option 'port' given twice"), std::string::npos);
}

TEST(ForgivingOptions, NearMissKeysGetAHint) {
  struct Case {
    const char* text;
    const char* hint;
  } cases[] = {
      {"prot=9404", "unknown option 'prot' (did you mean 'port'? accepted: host, port, "},
      {"Port=9404", "(did you mean 'port'?"},
      {"hots=::1", "(did you mean 'host'?"},
      {"portfiel=/tmp/p", "(did you mean 'portfile'?"},
      {"deadlock_check=500", "(did you mean 'deadlock_check_ms'?"},  // 3 edits: too far
      {"lable.env=prod", "(did you mean 'label.env'?"},
      {"otlp_endpont=http://x", "(did you mean 'otlp_endpoint'?"},
  };
  for (const auto& c : cases) {
    auto p = parse_options(c.text);
    if (std::string(c.text).rfind("deadlock_check=", 0) == 0) {
      EXPECT_EQ(p.error.find("did you mean"), std::string::npos) << p.error;
      continue;
    }
    EXPECT_NE(p.error.find(c.hint), std::string::npos) << c.text << ": " << p.error;
  }
}

TEST(SecureOptions, CredentialFilesAreNamedNeverGiven) {
  auto p = parse_options("basic_auth_file=/etc/jvmsight/users, bearer_token_file=/etc/jvmsight/token");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.basic_auth_file, "/etc/jvmsight/users");
  EXPECT_EQ(p.options.bearer_token_file, "/etc/jvmsight/token");
  EXPECT_NE(parse_options("basic_auth_file=").error.find("bad basic_auth_file ''"), std::string::npos);
  // There is no option that takes a password itself.
  EXPECT_NE(parse_options("password=secret").error.find("unknown option"), std::string::npos);
  EXPECT_NE(parse_options("bearer_tokenfile=abc").error.find("did you mean 'bearer_token_file'"), std::string::npos);
}

TEST(ForgivingOptions, FarKeysGetNoHintButTheList) {
  for (const char* text : {"bogus=1", "x=1", "ab=1", "verbose=1"}) {
    auto p = parse_options(text);
    EXPECT_EQ(p.error.find("did you mean"), std::string::npos) << p.error;
    EXPECT_NE(p.error.find("(accepted: host, port, portfile, log, "), std::string::npos) << p.error;
  }
}

TEST(ForgivingOptions, HugeUnknownKeyIsNoNearMissAndStaysBounded) {
  auto p = parse_options(std::string(100000, 'p') + "=1");
  EXPECT_EQ(p.error.find("did you mean"), std::string::npos);
  EXPECT_LT(p.error.size(), 150u + accepted_option_keys().size());
}

// The GC options (docs/OPTIONS.md, section GC): every accepted form and
// every error message.
TEST(GcOptions, SpanThresholdDefaultsToEveryPause) {
  auto p = parse_options("");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.options.gc_span_min_ns, 0);
}

TEST(GcOptions, SpanThresholdAcceptsWholeAndDecimalMilliseconds) {
  EXPECT_EQ(parse_options("gc_span_min_ms=10").options.gc_span_min_ns, 10'000'000);
  EXPECT_EQ(parse_options("gc_span_min_ms=0.5").options.gc_span_min_ns, 500'000);
  EXPECT_EQ(parse_options("gc_span_min_ms=0").options.gc_span_min_ns, 0);
  EXPECT_EQ(parse_options("gc_span_min_ms=3600000").options.gc_span_min_ns, 3'600'000'000'000);
  auto p = parse_options("port=0,gc_span_min_ms=2.25,log=warn");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.gc_span_min_ns, 2'250'000);
}

TEST(GcOptions, SpanThresholdErrorsSayWhatIsAccepted) {
  for (const char* bad :
       {"gc_span_min_ms=", "gc_span_min_ms=-1", "gc_span_min_ms=abc", "gc_span_min_ms=10ms", "gc_span_min_ms=3600001",
        "gc_span_min_ms=1e3", "gc_span_min_ms=nan", "gc_span_min_ms=inf", "gc_span_min_ms=5 0"}) {
    auto p = parse_options(bad);
    EXPECT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.error.find("bad gc_span_min_ms"), std::string::npos) << bad << ": " << p.error;
    EXPECT_NE(p.error.find("expected milliseconds from 0 to 3600000"), std::string::npos) << p.error;
  }
}

TEST(GcOptions, SpanThresholdGivenTwiceOrWithoutValue) {
  auto twice = parse_options("gc_span_min_ms=1,gc_span_min_ms=2");
  EXPECT_EQ(twice.error, "option 'gc_span_min_ms' given twice");
  auto bare = parse_options("gc_span_min_ms");
  EXPECT_NE(bare.error.find("has no value"), std::string::npos) << bare.error;
  EXPECT_NE(bare.error.find("gc_span_min_ms"), std::string::npos) << bare.error;
}

TEST(GcOptions, UnknownKeyMessageListsTheGcOption) {
  auto p = parse_options("gc_span_min=5");
  EXPECT_NE(p.error.find("unknown option 'gc_span_min'"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("gc_span_min_ms"), std::string::npos) << p.error;
}

TEST(GcOptions, NotificationsAutoOnOff) {
  EXPECT_EQ(parse_options("").options.gc_notifications, Tristate::auto_);
  EXPECT_EQ(parse_options("gc_notifications=auto").options.gc_notifications, Tristate::auto_);
  EXPECT_EQ(parse_options("gc_notifications=on").options.gc_notifications, Tristate::on);
  EXPECT_EQ(parse_options("gc_notifications=off").options.gc_notifications, Tristate::off);
}

TEST(GcOptions, NotificationsErrorsSayWhatIsAccepted) {
  for (const char* bad : {"gc_notifications=", "gc_notifications=yes", "gc_notifications=ON", "gc_notifications=1"}) {
    auto p = parse_options(bad);
    EXPECT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.error.find("bad gc_notifications"), std::string::npos) << p.error;
    EXPECT_NE(p.error.find("expected auto, on or off"), std::string::npos) << p.error;
  }
  EXPECT_EQ(parse_options("gc_notifications=on,gc_notifications=off").error, "option 'gc_notifications' given twice");
}

// Untrusted input (docs/SECURITY.md): printf directives in a value or a
// key are taken literally, never as a format.
TEST(UntrustedInput, OptionValuesWithDirectivesAreTakenLiterally) {
  auto parsed = parse_options("portfile=/tmp/%s%n%x,log=warn");
  ASSERT_TRUE(parsed.ok()) << parsed.error;
  EXPECT_EQ(parsed.options.portfile, "/tmp/%s%n%x");
  auto bad = parse_options("%s%n%s%n=1");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("'%s%n%s%n'"), std::string::npos) << bad.error;
}

}  // namespace
}  // namespace jvmsight
