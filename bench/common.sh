# Shared by the bench scripts: paths, JDK discovery, and writing a section of
# docs/BENCHMARKS.md between <!-- bench:NAME --> markers.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
AGENT=$BUILD/agent/libjvmsight.so
CLASSES=$BUILD/bench/classes
[ -f "$AGENT" ] || { echo "build first: cmake -S . -B build && make -C build (no $AGENT)" >&2; exit 1; }

# Every full JDK under /usr/lib/jvm, one per real java binary, then the
# extra ones of scripts/install_jdks.sh: JDK 11 as is, JDK 8 and 21 through
# the chroot wrappers the test harness writes (build/jdk-roots/bin/jdkN/bin;
# docs/TESTING.md), which the harness (re)writes here first. JDKS="25 21"
# keeps those feature numbers only, and names any it does not find.
bench_jdks() {
  local seen="" found="" home real feature
  # The harness writes the wrappers whenever it starts (tens of ms): on a
  # fresh build they are missing, and JDK 8 and 21 would be left out unsaid.
  if [ -d "$BUILD"/jdk-roots/trixie ] && [ -x "$BUILD"/tests/integration_tests ]; then
    "$BUILD"/tests/integration_tests --gtest_filter=-* >/dev/null
  fi
  for home in /usr/lib/jvm/* "$BUILD"/jdk-roots/host/usr/lib/jvm/* "$BUILD"/jdk-roots/bin/jdk*; do
    [ -x "$home/bin/jcmd" ] || continue
    # The wrappers name their root by absolute path: ones written for
    # another clone would run that clone's agent, or none.
    if [[ $home == "$BUILD"/jdk-roots/bin/* ]] && ! grep -qF "$BUILD/jdk-roots/" "$home/bin/java"; then
      echo "bench: $home/bin/java was written for another build directory; rewrite it:" \
        "$BUILD/tests/integration_tests --gtest_filter=-*" >&2
      continue
    fi
    real=$(readlink -f "$home/bin/java")
    case " $seen " in *" $real "*) continue ;; esac
    seen="$seen $real"
    if [ -n "${JDKS:-}" ]; then
      feature=$(feature_of "$home")  # a JVM start: only when asked to filter
      [[ " $JDKS " == *" $feature "* ]] || continue
      found="$found $feature"
    fi
    echo "$home"
  done
  for feature in ${JDKS:-}; do
    [[ " $found " == *" $feature "* ]] ||
      echo "bench: no JDK $feature found (JDK 8, 11 and 21: scripts/install_jdks.sh build/jdk-roots)" >&2
  done
}

# feature_of HOME: the JDK's feature number (8 for "1.8.0_504").
feature_of() { "$1/bin/java" -version 2>&1 | awk -F'"' 'NR == 1 { split($2, v, "."); print v[1] == "1" ? v[2] : v[1] }'; }

compile_bench() {
  mkdir -p "$CLASSES"
  /usr/lib/jvm/java-17-openjdk-amd64/bin/javac --release 8 -Xlint:-options -d "$CLASSES" "$ROOT"/bench/java/*.java
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# field_median FILE KEY: the median of KEY's values over FILE's RESULT lines (key=value pairs).
field_median() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p" | median; }

# write_section NAME FILE: replaces the section NAME of docs/BENCHMARKS.md with FILE's content.
write_section() {
  local name=$1 content=$2 doc=$ROOT/docs/BENCHMARKS.md
  python3 - "$doc" "$name" "$content" <<'PY'
import sys, re
doc, name, content = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().rstrip("\n")
text = open(doc).read()
begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
block = f"{begin}\n{content}\n{end}"
if begin in text:
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda m: block, text, flags=re.S)
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
open(doc, "w").write(text)
PY
}
