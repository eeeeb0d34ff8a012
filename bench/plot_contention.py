#!/usr/bin/env python3
"""Contention overhead by workload and JDK: throughput lost against no agent,
for jvmsight, HotSpot's event-posting floor and the peers (JFR default, JFR
monitor events at threshold 0, async-profiler lock mode).
Usage: plot_contention.py contention.tsv out.png (rows: workload jdk config median_ratio)."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
labels = {"floor": "HotSpot event posting (empty callbacks)", "agent": "jvmsight (defaults)",
          "agent-exact": "jvmsight, contention_sampling=off", "jfr-default": "JFR default settings",
          "jfr": "JFR JavaMonitorEnter threshold 0", "asprof": "async-profiler lock=0"}
groups = sorted({(w, j) for w, j, _, _ in rows})
configs = [c for c in labels if any(r[2] == c for r in rows)]
value = {(w, j, c): (1 - float(r)) * 100 for w, j, c, r in rows}
width = 0.8 / max(1, len(configs))
fig, ax = plt.subplots(figsize=(10, 4.5))
for i, c in enumerate(configs):
    xs = [g + i * width for g in range(len(groups))]
    ax.bar(xs, [value.get((w, j, c), 0) for w, j in groups], width, label=labels[c])
ax.set_xticks([g + width * (len(configs) - 1) / 2 for g in range(len(groups))])
ax.set_xticklabels([f"{w}\n{j}" for w, j in groups])
ax.axhline(1, color="grey", linestyle="--", linewidth=0.8)
ax.set_ylabel("throughput lost vs no agent (%)")
ax.set_title("Contention overhead (median of paired rounds; dashed: 1% target)")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
