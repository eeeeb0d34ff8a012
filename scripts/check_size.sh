#!/usr/bin/env bash
# Fails, naming them, on production files over 350 lines and functions over
# 60 lines (docs/ARCHITECTURE.md, "Naming"). Production: the C, C++ and Java
# files outside tests/, fuzz/ and bench/ (the Java is the helper classes the
# agent defines in the JVM; their functions are short by review, not
# measured). Function length is clang-tidy's readability-function-size
# (Debian's clang-tidy 14, a real C++ parser, so lambdas, macros and raw
# strings count right): the lines from a body's
# opening brace to its closing one, with the flags of the build's
# compile_commands.json. A declarative table written as one function is
# exempt with `// NOLINT(readability-function-size)` on its first line and a
# comment that says why.
# Usage: scripts/check_size.sh [build dir holding compile_commands.json]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
MAX_FILE_LINES=350
MAX_FUNCTION_LINES=60
PRODUCTION='^(agent|collectors|common|exporters|injector|loader|model|options)/'
cd "$ROOT"
failed=0

mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.c' '*.java' | grep -E "$PRODUCTION")
long_files=$(wc -l "${files[@]}" | awk -v max=$MAX_FILE_LINES '$2 != "total" && $1 > max {print "  " $2 ": " $1 " lines"}')
if [ -n "$long_files" ]; then
  echo "production files over $MAX_FILE_LINES lines:" >&2
  echo "$long_files" >&2
  failed=1
fi

command -v clang-tidy >/dev/null || {
  echo "clang-tidy is not installed (Debian package clang-tidy; scripts/quickstart.sh test installs it)" >&2
  exit 1
}
[ -f "$BUILD/compile_commands.json" ] || {
  echo "no $BUILD/compile_commands.json (configure with cmake first)" >&2
  exit 1
}
# Each production source once (some are compiled into two targets).
mapfile -t sources < <(python3 - "$BUILD/compile_commands.json" "$ROOT" "$PRODUCTION" <<'PY'
import json, os, re, sys
entries, root, production = json.load(open(sys.argv[1])), sys.argv[2], re.compile(sys.argv[3])
seen = set()
for e in entries:
    path = os.path.relpath(os.path.join(e["directory"], e["file"]), root)
    if production.match(path) and path not in seen:
        seen.add(path)
        print(path)
PY
)
config="{Checks: '-*,readability-function-size', CheckOptions: [{key: readability-function-size.LineThreshold, value: $MAX_FUNCTION_LINES}]}"
report=$(mktemp)
trap 'rm -f "$report"' EXIT
printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy --quiet -p "$BUILD" --config="$config" \
  --header-filter="^$ROOT/(agent|collectors|common|exporters|injector|loader|model|options)/" >"$report" 2>/dev/null || true
# A source clang-tidy could not parse is not measured: that fails too.
if grep -q ': error: ' "$report"; then
  echo "clang-tidy could not parse (build first: generated headers):" >&2
  grep ': error: ' "$report" | sed "s|^$ROOT/|  |" | sort -u | head -20 >&2
  failed=1
fi
grep 'readability-function-size' "$report" | sed "s|^$ROOT/||" | sort -u >"$report.long" || true
mv "$report.long" "$report"
if [ -s "$report" ]; then
  echo "functions over $MAX_FUNCTION_LINES lines:" >&2
  sed 's/^/  /' "$report" >&2
  failed=1
fi
[ $failed -eq 0 ] && echo "size: ${#files[@]} production files within $MAX_FILE_LINES lines, the functions of ${#sources[@]} sources within $MAX_FUNCTION_LINES"
exit $failed
