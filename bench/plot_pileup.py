"""Scrape cost vs threads under a lock pileup: jvmsight's whole /metrics
response against ThreadMXBean.getThreadInfo(getAllThreadIds()), per JDK,
as wall-clock time (left) and as CPU time (right: getThreadInfo's caller
and VM thread; the agent's threads for a scrape).
Usage: /usr/bin/python3 bench/plot_pileup.py docs/pileup_scrape.tsv docs/pileup_scrape.png
(Debian's python3-matplotlib; bench/pileup.sh writes the TSV.)"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
fig, (wall, cpu) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
for i, jdk in enumerate(sorted({r["jdk"] for r in rows})):
    mine = sorted((r for r in rows if r["jdk"] == jdk), key=lambda r: int(r["threads"]))
    x = [int(r["threads"]) for r in mine]
    color = f"C{i}"
    wall.plot(x, [float(r["getthreadinfo_ms"]) for r in mine], "--o", color=color, label=f"{jdk}: getThreadInfo(all)")
    wall.plot(x, [float(r["http_ms"]) for r in mine], "-s", color=color, label=f"{jdk}: jvmsight /metrics (HTTP)")
    wall.plot(x, [float(r["agent_ms"]) for r in mine], ":^", color=color, label=f"{jdk}: of which agent thread")
    cpu.plot(x, [float(r["getthreadinfo_cpu_ms"]) for r in mine], "--o", color=color,
             label=f"{jdk}: getThreadInfo(all)")
    cpu.plot(x, [float(r["scrape_cpu_ms"]) for r in mine], "-s", color=color, label=f"{jdk}: jvmsight /metrics")
for ax, what in ((wall, "wall-clock ms per scrape (median)"), (cpu, "CPU ms per scrape (median)")):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("live threads: 1/4 each sleeping, BLOCKED on one monitor,\nparked on one ReentrantLock, in Object.wait")
    ax.set_ylabel(what)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
wall.set_title("Scrape cost under a lock pileup: wall clock")
cpu.set_title("CPU time")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
