#!/usr/bin/env python3
"""GC overhead bench: AllocBench with and without jvmsight, runs interleaved.

Reports medians of throughput (allocation ops/s), of stop-the-world GC
pauses (GarbageCollectorMXBeans: count and whole-ms totals) and of the time
the JVM spent stopped at safepoints (-Xlog:safepoint, ns resolution: the
sub-millisecond ZGC/Shenandoah pauses need it), all measured independently
of the agent, and the with/without ratios. With the agent, /metrics and /gc are
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


def scrape_loop(portfile, stop, interval):
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
        stop.wait(interval)


def run_once(args, classes, agent):
    cmd = [os.path.join(args.jdk, "bin", "java"), f"-XX:+Use{args.gc}GC", f"-Xmx{args.heap}", f"-Xms{args.heap}",
           "-cp", classes]
    stop = threading.Event()
    scraper = None
    tmp = tempfile.mkdtemp(prefix="jvmsight-bench-")
    if agent:
        portfile = os.path.join(tmp, "port")
        options = f"port=0,host=127.0.0.1,portfile={portfile},log=warn"
        if args.agent_options:
            options += "," + args.agent_options
        cmd.insert(1, f"-agentpath:{args.agent}={options}")
        if args.scrape_interval > 0:
            scraper = threading.Thread(target=scrape_loop, args=(portfile, stop, args.scrape_interval), daemon=True)
            scraper.start()
    splog = os.path.join(tmp, "safepoint.log")
    cmd.insert(1, f"-Xlog:safepoint=info:file={splog}:uptime")
    cmd += ["AllocBench", str(args.threads), "2000", str(args.seconds * 1000)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.seconds + 60)
    stopped = safepoint_ms(splog, 2.0, 2.0 + args.seconds)
    stop.set()
    if scraper:
        scraper.join()
    shutil.rmtree(tmp, ignore_errors=True)
    m = re.search(r"RESULT (.*)", out.stdout)
    if not m:
        sys.exit(f"bench failed: {out.stdout}\n{out.stderr}")
    result = {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    result.update(stopped)
    return result


def safepoint_ms(path, start_s, end_s):
    # [2.345s] Safepoint "G1CollectForAllocation", Time since last: ... ns, Reaching safepoint: ... ns,
    #   At safepoint: ... ns, Total: ... ns
    at = total = 0
    n = 0
    pattern = re.compile(r"\[(\d+\.\d+)s\] Safepoint \"([^\"]+)\".*At safepoint: (\d+) ns, Total: (\d+) ns")
    for line in open(path, errors="replace"):
        m = pattern.search(line)
        if m and start_s <= float(m.group(1)) <= end_s:
            at += int(m.group(3))
            total += int(m.group(4))
            n += 1
    return {"safepoints": n, "at_safepoint_ms": at / 1e6, "stopped_ms": total / 1e6}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--gc", default="G1")
    p.add_argument("--seconds", type=int, default=8)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--heap", default="256m")
    p.add_argument("--jdk", default="/usr/lib/jvm/java-17-openjdk-amd64")
    p.add_argument("--agent", default=os.path.join(ROOT, "build", "agent", "libjvmsight.so"))
    p.add_argument("--scrape-interval", type=float, default=1.0, help="seconds between scrapes; 0: never")
    p.add_argument("--agent-options", default="", help="extra agent options")
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

    for r in results[False] + results[True]:
        r["mean_at_safepoint_us"] = r["at_safepoint_ms"] * 1000 / r["safepoints"] if r["safepoints"] else 0
        # Time at safepoints the collectors' own timers do not cover, per
        # safepoint: where work added inside a pause (e.g. GC notifications) shows.
        r["outside_gc_timer_us"] = ((r["at_safepoint_ms"] - r["pause_ms"]) * 1000 / r["safepoints"]
                                    if r["safepoints"] else 0)

    def paired(key):
        # Runs i of both kinds ran back to back: their ratio cancels most of
        # the machine's drift (other load on a shared host).
        ratios = [a[key] / b[key] for b, a in zip(results[False], results[True]) if b[key] > 0]
        return statistics.median(ratios) if ratios else float("nan"), ratios

    rows = []
    for key, label, fmt in (("ops_per_s", "throughput (alloc ops/s)", ",.0f"), ("pause_count", "STW pauses (count)", ",.0f"),
                            ("pause_ms", "STW pause total, MXBeans (ms)", ",.0f"),
                            ("safepoints", "safepoints (count)", ",.0f"),
                            ("at_safepoint_ms", "time at safepoints (ms)", ",.1f"),
                            ("stopped_ms", "time stopped incl. reaching safepoints (ms)", ",.1f"),
                            ("mean_at_safepoint_us", "mean time at a safepoint (µs)", ",.1f"),
                            ("outside_gc_timer_us", "time at a safepoint outside the GC's own timer (µs)", ",.1f")):
        b, a = med(False, key), med(True, key)
        ratio, ratios = paired(key)
        rows.append(f"| {label} | {b:{fmt}} | {a:{fmt}} | {a / b if b else float('nan'):.3f} | {ratio:.3f} "
                    f"({min(ratios):.2f}-{max(ratios):.2f}) | {spread(False, key):.0f}% / {spread(True, key):.0f}% |")
    jdk_version = subprocess.run([os.path.join(args.jdk, "bin", "java"), "-version"], capture_output=True,
                                 text=True).stderr.splitlines()[0]
    cmd = (f"bench/gc_overhead.py --runs {args.runs} --threads {args.threads} --gc {args.gc} "
           f"--seconds {args.seconds} --jdk {args.jdk}"
           + (f" --agent-options {args.agent_options}" if args.agent_options else "")
           + " --write docs/BENCHMARKS.md")
    table = "\n".join([
        f"Workload: AllocBench, {args.threads} threads, -XX:+Use{args.gc}GC -Xmx{args.heap}, {args.seconds} s measured "
        f"after 2 s warm-up, {args.runs} runs each, interleaved; with the agent, /metrics and /gc scraped every "
        f"{args.scrape_interval:g} s (0: never){', options ' + args.agent_options if args.agent_options else ''}. "
        f"JDK: {jdk_version}; {os.cpu_count()} CPUs.",
        "",
        "| metric | without agent (median) | with agent (median) | ratio of medians | median of paired ratios (range) "
        "| spread without / with |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"Command: `{cmd}`",
    ])
    print()
    print(table)
    if args.write:
        update_section(args.write, table, args.gc + (f", {args.agent_options}" if args.agent_options else ""))


def update_section(path, table, gc):
    header = f"### GC: allocation workload, {gc}"
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    section = f"{header}\n\n{table}\n"
    pattern = re.compile(re.escape(header) + r"\n.*?(?=\n##+ |\Z)", re.S)
    text = pattern.sub(section.rstrip("\n"), text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text if text.endswith("\n") else text + "\n")
    print(f"updated {path}")


if __name__ == "__main__":
    main()
