#!/usr/bin/env bash
# Fails, naming each one, on an #include that crosses the layering map: the
# block between "BEGIN layering map" and "END layering map" in
# docs/ARCHITECTURE.md, one line per folder (or single header) of
# production code, "node -> what it may include", e.g.
#   collectors/gc -> collectors
# A node may include its own files and, transitively, what its dependencies
# may include; "folder == node" puts a folder's files in another node. Every production C/C++ file must sit in a folder the map
# names (a new folder is a new line), and the map must have no cycle.
# Includes outside the project (system, generated protobuf) are not edges.
# Usage: scripts/check_layering.sh [source root] [map document]
# (defaults: this repository and its docs/ARCHITECTURE.md; the ctest
# style.layering_catches fixture passes a planted tree of its own).
set -euo pipefail
ROOT=$(cd "${1:-$(dirname "$0")/..}" && pwd)
MAP=${2:-$ROOT/docs/ARCHITECTURE.md}
exec python3 - "$ROOT" "$MAP" <<'PY'
import os, re, sys

root, map_file = sys.argv[1], sys.argv[2]
PRODUCTION = ("agent", "collectors", "common", "exporters", "injector", "loader", "model", "options")

aliases = {}  # "folder == node": the folder's files belong to node


def read_map():
    # "node -> a, b  # why"; a line without "->" continues the one before.
    deps, inside, last = {}, False, None
    for line in open(map_file, encoding="utf-8"):
        if "BEGIN layering map" in line:
            inside = True
            continue
        if "END layering map" in line:
            inside = False
        if not inside or line.startswith("```"):
            continue
        text = line.split("#")[0]
        alias = re.match(r"^\s*([\w/.]+)\s*==\s*([\w/.]+)\s*$", text)
        if alias:
            aliases[alias.group(1)], last = alias.group(2), None
            continue
        m = re.match(r"^\s*([\w/.]+)\s*->(.*)$", text)
        if m:
            last, text = m.group(1), m.group(2)
            deps[last] = []
        if last is not None:
            deps[last] += [d.strip() for d in text.split(",") if d.strip() and d.strip() != "-"]
    return deps

def closure(deps):
    reach, problems = {}, []
    def visit(node, path):
        if node in reach:
            return reach[node]
        if node in path:
            problems.append("the map has a cycle: " + " -> ".join(path[path.index(node):] + [node]))
            return set()
        out = set()
        for d in deps.get(node, []):
            if d not in deps:
                problems.append(f"the map names {d} (a dependency of {node}) but gives it no line")
                continue
            out |= {d} | visit(d, path + [node])
        reach[node] = out
        return out
    for n in deps:
        visit(n, [])
    return reach, problems

def node_of(path, deps):
    # A header of its own line first (e.g. exporters/http/tls_settings), then its folder.
    stem = os.path.splitext(path)[0]
    if stem in deps:
        return stem
    folder = os.path.dirname(path)
    folder = aliases.get(folder, folder)
    return folder if folder in deps else None

def production_files():
    for top in PRODUCTION:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith((".h", ".cpp", ".c")):
                    yield os.path.relpath(os.path.join(dirpath, n), root)

deps = read_map()
if not deps:
    sys.exit(f"no layering map found in {map_file} (between 'BEGIN layering map' and 'END layering map')")
reach, problems = closure(deps)
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
files = sorted(production_files())
for path in files:
    src = node_of(path, deps)
    if src is None:
        problems.append(f"{path}: its folder {os.path.dirname(path)} is not in the layering map")
        continue
    for number, line in enumerate(open(os.path.join(root, path), encoding="utf-8", errors="replace"), 1):
        m = include.match(line)
        if not m or m.group(1).split("/")[0] not in PRODUCTION:
            continue  # a system or generated header
        target = node_of(m.group(1), deps)
        if target is None:
            problems.append(f"{path}:{number}: includes {m.group(1)}, whose folder is not in the layering map")
        elif target != src and target not in reach[src]:
            problems.append(f"{path}:{number}: includes {m.group(1)}: {src} may not depend on {target}")
if problems:
    print(f"layering ({os.path.relpath(map_file, root)}):", file=sys.stderr)
    for p in problems:
        print("  " + p, file=sys.stderr)
    sys.exit(1)
print(f"layering: {len(files)} production files, every include within the map's {len(deps)} nodes")
PY
