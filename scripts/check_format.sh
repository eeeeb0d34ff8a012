#!/usr/bin/env bash
# Fails, naming the files, when clang-format (the project's .clang-format,
# Debian's clang-format 14) would change any tracked C or C++ file. Fix with:
#   clang-format -i $(git ls-files '*.h' '*.cpp' '*.c')
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "clang-format is not installed (Debian package clang-format; scripts/quickstart.sh test installs it)" >&2
  exit 1
fi
if git rev-parse --git-dir >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.c')
else
  mapfile -t files < <(find . -path ./build -prune -o -path './build-*' -prune -o \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) -print)
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "not formatted with clang-format (${#unformatted[@]} files):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "clang-format: ${#files[@]} files formatted"
