"""Scrape cost vs threads under a lock pileup: jvmsight's whole /metrics
response against ThreadMXBean.getThreadInfo(getAllThreadIds()), per JDK.
Usage: /usr/bin/python3 bench/plot_pileup.py docs/pileup_scrape.tsv docs/pileup_scrape.png
(Debian's python3-matplotlib; bench/pileup.sh writes the TSV.)"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
fig, ax = plt.subplots(figsize=(7, 4.5))
for i, jdk in enumerate(sorted({r["jdk"] for r in rows})):
    mine = sorted((r for r in rows if r["jdk"] == jdk), key=lambda r: int(r["threads"]))
    x = [int(r["threads"]) for r in mine]
    color = f"C{i}"
    ax.plot(x, [float(r["getthreadinfo_ms"]) for r in mine], "--o", color=color, label=f"{jdk}: getThreadInfo(all)")
    ax.plot(x, [float(r["http_ms"]) for r in mine], "-s", color=color, label=f"{jdk}: jvmsight /metrics (HTTP)")
    ax.plot(x, [float(r["agent_ms"]) for r in mine], ":^", color=color, label=f"{jdk}: of which agent thread")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("live threads: 1/4 each sleeping, BLOCKED on one monitor,\nparked on one ReentrantLock, in Object.wait")
ax.set_ylabel("ms per scrape (median)")
ax.set_title("Scrape cost under a lock pileup")
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
