#!/usr/bin/env python3
"""GC overhead bench: AllocBench with and without jvmsight, runs interleaved.

Reports medians of throughput (allocation ops/s) and of stop-the-world GC
pause totals (GarbageCollectorMXBeans, so the measurement does not depend on
the agent), and the with/without ratios. With the agent, /metrics and /gc are
scraped every second during the run (far more often than Prometheus does) so
the agent thread's draining, matching and JNI reads are all exercised.

Usage: bench/gc_overhead.py [--runs 5] [--gc G1] [--seconds 8] [--jdk /usr/lib/jvm/...]
       [--write docs/BENCHMARKS.md]
Needs a built agent (build/agent/libjvmsight.so). Takes about 2.5 minutes
with the defaults. Not part of the test suite.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_bench(jdk, out):
    os.makedirs(out, exist_ok=True)
    subprocess.run([os.path.join(jdk, "bin", "javac"), "--release", "17", "-d", out,
                    os.path.join(ROOT, "bench", "java", "AllocBench.java")], check=True)


def scrape_loop(portfile, stop):
    port = None
    while not stop.is_set():
        if port is None and os.path.exists(portfile):
            try:
                port = int(open(portfile).read().strip())
            except ValueError:
                pass
        if port:
            for path in ("/metrics", "/gc"):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()
                except OSError:
                    pass
        stop.wait(1.0)


def run_once(args, classes, agent):
    cmd = [os.path.join(args.jdk, "bin", "java"), f"-XX:+Use{args.gc}GC", f"-Xmx{args.heap}", f"-Xms{args.heap}",
           "-cp", classes]
    stop = threading.Event()
    scraper = None
    tmp = tempfile.mkdtemp(prefix="jvmsight-bench-")
    if agent:
        portfile = os.path.join(tmp, "port")
        cmd.insert(1, f"-agentpath:{args.agent}=port=0,host=127.0.0.1,portfile={portfile},log=warn")
        scraper = threading.Thread(target=scrape_loop, args=(portfile, stop), daemon=True)
        scraper.start()
    cmd += ["AllocBench", str(args.threads), "2000", str(args.seconds * 1000)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.seconds + 60)
    stop.set()
    if scraper:
        scraper.join()
    shutil.rmtree(tmp, ignore_errors=True)
    m = re.search(r"RESULT (.*)", out.stdout)
    if not m:
        sys.exit(f"bench failed: {out.stdout}\n{out.stderr}")
    return {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--gc", default="G1")
    p.add_argument("--seconds", type=int, default=8)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--heap", default="256m")
    p.add_argument("--jdk", default="/usr/lib/jvm/java-17-openjdk-amd64")
    p.add_argument("--agent", default=os.path.join(ROOT, "build", "agent", "libjvmsight.so"))
    p.add_argument("--write", help="update the GC section of this markdown file")
    args = p.parse_args()
    classes = os.path.join(ROOT, "build", "bench-classes")
    compile_bench(args.jdk, classes)

    results = {False: [], True: []}
    for i in range(args.runs):
        # Interleave, alternating which goes first, so drift hits both alike.
        for agent in ((False, True) if i % 2 == 0 else (True, False)):
            r = run_once(args, classes, agent)
            results[agent].append(r)
            print(f"run {i + 1} {'agent   ' if agent else 'baseline'} {r}", flush=True)

    def med(agent, key):
        return statistics.median(r[key] for r in results[agent])

    def spread(agent, key):
        v = [r[key] for r in results[agent]]
        return (max(v) - min(v)) / statistics.median(v) * 100 if statistics.median(v) else 0

    rows = []
    for key, label in (("ops_per_s", "throughput (alloc ops/s)"), ("pause_count", "STW pauses (count)"),
                       ("pause_ms", "STW pause total (ms)")):
        b, a = med(False, key), med(True, key)
        ratio = a / b if b else float("nan")
        rows.append(f"| {label} | {b:,.0f} | {a:,.0f} | {ratio:.3f} | {spread(False, key):.1f}% / {spread(True, key):.1f}% |")
    mean_b = med(False, "pause_ms") / max(med(False, "pause_count"), 1)
    mean_a = med(True, "pause_ms") / max(med(True, "pause_count"), 1)
    rows.append(f"| mean STW pause (ms) | {mean_b:.3f} | {mean_a:.3f} | {mean_a / mean_b if mean_b else float('nan'):.3f} | |")
    jdk_version = subprocess.run([os.path.join(args.jdk, "bin", "java"), "-version"], capture_output=True,
                                 text=True).stderr.splitlines()[0]
    cmd = f"bench/gc_overhead.py --runs {args.runs} --gc {args.gc} --seconds {args.seconds} --jdk {args.jdk}"
    table = "\n".join([
        f"Workload: AllocBench, {args.threads} threads, -XX:+Use{args.gc}GC -Xmx{args.heap}, {args.seconds} s measured "
        f"after 2 s warm-up, {args.runs} runs each, interleaved; with the agent /metrics and /gc scraped every second. "
        f"JDK: {jdk_version}; {os.cpu_count()} CPUs.",
        "",
        "| metric | without agent (median) | with agent (median) | ratio | spread without / with |",
        "|---|---|---|---|---|",
        *rows,
        "",
        f"Command: `{cmd}`",
    ])
    print()
    print(table)
    if args.write:
        update_section(args.write, table, args.gc)


def update_section(path, table, gc):
    header = f"## GC: allocation workload, {gc}"
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    section = f"{header}\n\n{table}\n"
    pattern = re.compile(re.escape(header) + r"\n.*?(?=\n## |\Z)", re.S)
    text = pattern.sub(section.rstrip("\n"), text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text if text.endswith("\n") else text + "\n")
    print(f"updated {path}")


if __name__ == "__main__":
    main()
