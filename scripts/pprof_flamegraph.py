#!/usr/bin/env python3
"""A flame graph (SVG) of a pprof profile, from Go's own reader's output.

Usage: go tool pprof -symbolize=none -raw PROFILE | scripts/pprof_flamegraph.py [VALUE_INDEX [TITLE]] > out.svg
VALUE_INDEX picks the sample value (mutex/block profiles: 0 contentions,
1 delay in ns; default 1). Roots at the bottom, leaves on top; a frame's
width is its share of the value. Standard library only.
"""
import html
import re
import sys

WIDTH, ROW, FONT = 1200, 18, 11


def parse(lines, index):
    section, samples, locations = "", [], {}
    for line in lines:
        line = line.rstrip("\n")
        if line in ("Samples:", "Locations", "Mappings"):
            section = line
            continue
        if section == "Samples:" and ":" in line:
            values, ids = line.split(":", 1)
            samples.append((int(values.split()[index]), [int(i) for i in ids.split()]))
        elif section == "Locations":
            m = re.match(r"\s*(\d+): \S+ (?:M=\d+ )?(\S+)", line)
            if m:
                locations[int(m.group(1))] = m.group(2)
    return [(v, [locations.get(i, "?") for i in reversed(ids)]) for v, ids in samples if v > 0]


def tree(samples):
    root = {"name": "all", "value": 0, "children": {}}
    for value, frames in samples:
        node = root
        node["value"] += value
        for f in frames:
            node = node["children"].setdefault(f, {"name": f, "value": 0, "children": {}})
            node["value"] += value
    return root


def depth(node):
    return 1 + max((depth(c) for c in node["children"].values()), default=0)


def color(name):
    h = sum(map(ord, name)) % 60
    return f"rgb({205 + h % 50},{80 + h * 2},{40 + h % 30})"


def draw(node, x, level, scale, height, out):
    w = node["value"] * scale
    if w < 0.5:
        return
    y = height - (level + 1) * ROW
    label = node["name"] if len(node["name"]) * FONT * 0.6 < w else node["name"][: max(0, int(w / (FONT * 0.6)) - 2)]
    label = label + ".." if label and label != node["name"] else label
    title = f"{node['name']} ({node['value']:,})"
    out.append(f'<g><title>{html.escape(title)}</title><rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{ROW - 1}" '
               f'fill="{color(node["name"])}"/><text x="{x + 3:.1f}" y="{y + ROW - 5}">{html.escape(label)}</text></g>')
    for child in sorted(node["children"].values(), key=lambda c: c["name"]):
        draw(child, x, level + 1, scale, height, out)
        x += child["value"] * scale


def main():
    index = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    root = tree(parse(sys.stdin, index))
    if root["value"] == 0:
        sys.exit("no samples with a value")
    title = sys.argv[2] if len(sys.argv) > 2 else ""
    height = depth(root) * ROW + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="monospace" '
           f'font-size="{FONT}"><rect width="100%" height="100%" fill="#fff"/>',
           f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-size="{FONT + 3}">{html.escape(title)}</text>']
    draw(root, 0, 0, WIDTH / root["value"], height - 10, out)
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
