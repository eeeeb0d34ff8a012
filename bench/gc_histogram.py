#!/usr/bin/env python3
"""The GC pause histogram against the GarbageCollectorMXBeans' totals.

Runs bench/java/AllocBench.java with the agent on each JDK (G1 by default),
scrapes /metrics every 500 ms and keeps the last scrape before the JVM
exits: in one response, jvmsight_gc_pause_seconds (every stop-the-world
pause, JVM TI events) and jvm_gc_collection_seconds (the MXBeans' count and
time) of the same moment. Prints a table (pauses and collections, time in
both) and, with Debian's matplotlib, plots the histogram per JDK with the
totals in the title.

Usage: bench/gc_histogram.py [--gc G1] [--seconds 8] [--png docs/gc_histogram.png] [--table FILE] JDK_HOME...
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AGENT = os.environ.get("JVMSIGHT_AGENT", os.path.join(ROOT, "build", "agent", "libjvmsight.so"))
SAMPLE = re.compile(r'^([a-z_]+)\{([^}]*)\} ([0-9.eE+-]+|\+Inf)$')


def parse(text):
    """name -> list of (labels dict, value) for the families we read."""
    out = {}
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if not m:
            continue
        labels = dict(re.findall(r'([a-z_]+)="([^"]*)"', m.group(2)))
        out.setdefault(m.group(1), []).append((labels, float(m.group(3))))
    return out


def last_scrape(jdk, gc, seconds):
    tmp = tempfile.mkdtemp(prefix="jvmsight-gc-")
    subprocess.run([os.path.join(jdk, "bin", "javac"), "--release", "17", "-d", tmp,
                    os.path.join(ROOT, "bench", "java", "AllocBench.java")], check=True)
    portfile = os.path.join(tmp, "port")
    proc = subprocess.Popen([os.path.join(jdk, "bin", "java"), f"-XX:+Use{gc}GC", "-Xmx256m", "-cp", tmp,
                             f"-agentpath:{AGENT}=port=0,host=127.0.0.1,portfile={portfile},log=warn",
                             "AllocBench", "1", "1000", str(seconds * 1000)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    latest = [None]
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            try:
                port = int(open(portfile).read().strip())
                latest[0] = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
            except (OSError, ValueError):
                pass
            stop.wait(0.5)

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    proc.wait()
    stop.set()
    t.join()
    return parse(latest[0] or "")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("jdks", nargs="+")
    p.add_argument("--gc", default="G1")
    p.add_argument("--seconds", type=int, default=8)
    p.add_argument("--png")
    p.add_argument("--table")
    args = p.parse_args()
    rows, panels = [], []
    for jdk in args.jdks:
        m = last_scrape(jdk, args.gc, args.seconds)
        name = os.path.basename(jdk)
        buckets = {}
        for labels, v in m.get("jvmsight_gc_pause_seconds_bucket", []):
            buckets.setdefault(labels["gc"], []).append((float(labels["le"]), v))
        for gc, cumulative in sorted(buckets.items()):
            cumulative.sort()
            pauses = cumulative[-1][1]
            pause_sum = next((v for l, v in m.get("jvmsight_gc_pause_seconds_sum", []) if l["gc"] == gc), 0)
            beans = {l["gc"]: v for l, v in m.get("jvm_gc_collection_seconds_count", [])}
            bean_time = {l["gc"]: v for l, v in m.get("jvm_gc_collection_seconds_sum", [])}
            rows.append(f"| {name} | {gc} | {pauses:.0f} | {beans.get(gc, 0):.0f} | {pause_sum * 1000:.1f} | "
                        f"{bean_time.get(gc, 0) * 1000:.0f} |")
            per_bucket = [(le, v - (cumulative[i - 1][1] if i else 0)) for i, (le, v) in enumerate(cumulative)]
            panels.append((f"{name} {gc}: {pauses:.0f} pauses, {pause_sum * 1000:.0f} ms; "
                           f"MXBean {beans.get(gc, 0):.0f}, {bean_time.get(gc, 0) * 1000:.0f} ms", per_bucket))
    table = ["| JDK | gc | pauses (jvmsight histogram count) | collections (MXBean) | pause time, histogram sum (ms) |"
             " collection time, MXBean (ms, whole ms each) |", "|---|---|---|---|---|---|"] + rows
    print("\n".join(table))
    if args.table:
        open(args.table, "w").write("\n".join(table) + "\n")
    if args.png and panels:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(len(panels), 1, figsize=(9, 2.6 * len(panels)), squeeze=False)
        for ax, (title, per_bucket) in zip(axes[:, 0], panels):
            labels = ["+Inf" if le == float("inf") else f"{le * 1000:g}" for le, _ in per_bucket]
            ax.bar(range(len(per_bucket)), [v for _, v in per_bucket])
            ax.set_xticks(range(len(per_bucket)))
            ax.set_xticklabels(labels, fontsize=7)
            ax.set_title(title, fontsize=9)
            ax.set_ylabel("pauses")
        axes[-1, 0].set_xlabel("bucket upper bound (ms)")
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
