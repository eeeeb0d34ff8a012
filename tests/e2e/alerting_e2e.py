#!/usr/bin/python3
"""End to end: a JVM deadlocks, Prometheus fires JvmDeadlocked, Alertmanager delivers it.

Everything listens on 127.0.0.1, on free ports:
  - two JVMs with the agent (port=0 and a portfile), running tests/java/AlertingWorkload:
      "deadlocked": contended workload (contention, BLOCKED threads, lock queues,
                    virtual threads), G1, on the newest JDK under /usr/lib/jvm (21+ for
                    virtual threads); told to deadlock once Prometheus scrapes it;
      "healthy":    calm workload, ZGC (so concurrent-cycle panels have data), on the oldest JDK;
      "warned":     calm workload with stuck_threshold_ms=2000, on a JDK between the two; told to
                    get a thread stuck on a lock and to take two locks in opposite orders;
  - a webhook receiver (in this process);
  - Debian's prometheus-alertmanager with deploy/prometheus/alertmanager-example.yaml, its
    receivers pointed at the webhook (the route is kept as shipped);
  - Debian's prometheus, scraping the three JVMs every second and evaluating a copy of
    deploy/prometheus/jvmsight-rules.yaml in which only the `for:` durations are shortened.
Checks, in order:
  1. before the deadlock, JvmDeadlocked is not active for either JVM;
  2. JvmDeadlocked reaches the webhook for the deadlocked JVM within `for` + 10 s of the
     fixture's own timestamp of entering the deadlock (measured and printed);
  3. its link http://<instance>/deadlocks shows the cycle;
  4. every query of deploy/grafana/jvmsight-dashboard.json, variables substituted as Grafana
     does, returns data with a finite value (virtual-thread queries need a JDK 21+: without
     one they are skipped and the output says so); the job/instance variables list both JVMs;
  5. the warnings before a deadlock: JvmThreadsStuck and JvmLockOrderInversion fire for the warned
     JVM and reach the webhook (the example's tickets route, group_wait 30 s), then resolve while the
     JVM runs on (the stuck thread gets its lock; the inversion's locks are collected): Prometheus
     and Alertmanager drop them;
  6. the deadlocked JVM is told to collect back to back (System.gc()): JvmStoppedTooLong fires for it;
  7. the deadlocked JVM is killed: JvmsightAgentDown fires for it, JvmDeadlocked resolves;
  8. throughout, the healthy JVM has no alert at all (any state), and none was delivered for it.
"""
import argparse
import copy
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grafana_dashboard as gd  # noqa: E402

JOB = "jvmsight-e2e"
STARTED = time.monotonic()


class Failure(Exception):
    pass


def say(message):
    print(f"[alerting +{time.monotonic() - STARTED:5.1f}s] {message}", flush=True)


def wait_until(what, predicate, timeout, interval=0.05):
    """Polls predicate until it returns something truthy; Failure after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(port, path, params=None, timeout=5):
    url = f"http://127.0.0.1:{port}{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params, doseq=True)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except (urllib.error.URLError, OSError):
        return 0, ""


# ------------------------------------------------------------------ processes

class Proc:
    def __init__(self, workdir, name, argv, stdin=False):
        self.name = name
        self.out_path = os.path.join(workdir, name + ".out")
        self.err_path = os.path.join(workdir, name + ".err")
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.popen = subprocess.Popen(argv, stdout=out, stderr=err,
                                          stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                          start_new_session=True, text=True)

    def out(self):
        with open(self.out_path) as f:
            return f.read()

    def err(self):
        with open(self.err_path) as f:
            return f.read()

    def running(self):
        return self.popen.poll() is None

    def line(self, prefix, timeout):
        def find():
            if not self.running():
                raise Failure(f"{self.name} exited ({self.popen.returncode}) before printing {prefix}:\n{self.err()[-3000:]}")
            return next((l for l in self.out().splitlines() if l.startswith(prefix)), None)
        return wait_until(f"{self.name} to print {prefix}", find, timeout)

    def send(self, line):
        self.popen.stdin.write(line + "\n")
        self.popen.stdin.flush()

    def kill(self):
        # The process group is this process's own child and its children.
        if self.running():
            os.killpg(self.popen.pid, signal.SIGKILL)
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


class Run:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="jvmsight-alerting-e2e-")
        self.procs = []

    def spawn(self, name, argv, stdin=False):
        p = Proc(self.dir, name, argv, stdin)
        self.procs.append(p)
        return p

    def diagnostics(self):
        for p in self.procs:
            err = p.err().strip()
            if err:
                print(f"--- {p.name} stderr (last 2000 chars) ---\n{err[-2000:]}")

    def close(self):
        for p in reversed(self.procs):
            p.kill()
        if os.environ.get("JVMSIGHT_KEEP_TEST_FILES"):
            print(f"[alerting] files kept in {self.dir}")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


def start_server(run, name, argv_for_port, ready_path, timeout=30):
    """Starts a server on a free port; retries on another port if it exits (e.g. the port was taken)."""
    for attempt in range(3):
        port = free_port()
        p = run.spawn(f"{name}-{attempt}", argv_for_port(port))
        ready = wait_until(f"{name} on port {port}",
                           lambda: (not p.running()) or http_get(port, ready_path)[0] == 200, timeout, 0.1)
        if ready and p.running():
            return p, port
        say(f"{name} exited at start (attempt {attempt + 1}): {p.err()[-500:]}")
    raise Failure(f"{name} would not start")


# ----------------------------------------------------------------------- JDKs

def jdks():
    """(feature, home) of each distinct JDK, as tests/harness/jdks.cpp finds them."""
    env = os.environ.get("JVMSIGHT_TEST_JDKS")
    if env:
        homes = [h for h in env.split(":") if h]
    else:
        homes = sorted(os.path.join("/usr/lib/jvm", d) for d in os.listdir("/usr/lib/jvm") if not d.startswith("."))
    found, seen = [], set()
    for home in homes:
        java = os.path.join(home, "bin", "java")
        if not os.access(os.path.join(home, "bin", "jcmd"), os.X_OK) or not os.path.exists(java):
            continue
        real = os.path.realpath(java)
        if real in seen:
            continue
        seen.add(real)
        feature = 0
        try:
            with open(os.path.join(home, "release")) as f:
                m = re.search(r'^JAVA_VERSION="(\d+)', f.read(), re.M)
                feature = int(m.group(1)) if m else 0
        except OSError:
            pass
        if feature:
            found.append((feature, home))
    return sorted(found)


def start_jvm(run, name, home, gc_flag, mode, agent, classes, extra_options=""):
    portfile = os.path.join(run.dir, name + ".port")
    options = f"port=0,host=127.0.0.1,portfile={portfile}{extra_options}"
    argv = [os.path.join(home, "bin", "java"), gc_flag, "-Xmx128m", f"-agentpath:{agent}={options}",
            "-cp", classes, "AlertingWorkload", mode]
    p = run.spawn(name, argv, stdin=True)
    return p, portfile


# ----------------------------------------------------------------- prometheus

class Prometheus:
    def __init__(self, port):
        self.port = port

    def api(self, path, params=None):
        status, body = http_get(self.port, "/api/v1/" + path, params)
        if status != 200:
            raise Failure(f"Prometheus /api/v1/{path} {params}: HTTP {status}: {body[:500]}")
        doc = json.loads(body)
        if doc.get("status") != "success":
            raise Failure(f"Prometheus /api/v1/{path}: {doc}")
        return doc["data"]

    def query(self, expr):
        return self.api("query", {"query": expr})

    def alerts(self):
        return self.api("alerts")["alerts"]


def start_prometheus(run, binary, config):
    """Debian's prometheus with this configuration (a dict), on a free loopback port."""
    path = os.path.join(run.dir, "prometheus.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(config, f)
    _, port = start_server(run, "prometheus", lambda p: [
        binary, f"--config.file={path}", f"--storage.tsdb.path={run.dir}/prometheus-data",
        f"--web.listen-address=127.0.0.1:{p}", "--log.level=warn"], "/-/ready")
    return Prometheus(port)


def finite_samples(data):
    """Samples with a finite value in an instant query result."""
    if data["resultType"] == "vector":
        values = [float(s["value"][1]) for s in data["result"]]
    elif data["resultType"] == "scalar":
        values = [float(data["result"][1])]
    else:
        values = [float(v[1]) for s in data["result"] for v in s.get("values", [])]
    return [v for v in values if math.isfinite(v)]


class Webhook:
    """Records every Alertmanager notification with the time it arrived."""

    def __init__(self):
        self.lock = threading.Lock()
        self.received = []
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                at = time.time()
                with hook.lock:
                    hook.received.append((at, self.path, json.loads(body)))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def alerts(self):
        """(arrival time, receiver path, alert) for every alert in every notification."""
        with self.lock:
            return [(at, path, a) for at, path, payload in self.received for a in payload.get("alerts", [])]

    def close(self):
        self.server.shutdown()


def rules_of(doc):
    return [r for g in doc["groups"] for r in g["rules"]]


def shortened_rules(source, target, for_seconds):
    """A copy of the rule file with every `for:` set to for_seconds; expressions untouched."""
    with open(source) as f:
        original = yaml.safe_load(f)
    short = copy.deepcopy(original)
    for r in rules_of(short):
        if "for" in r:
            r["for"] = f"{for_seconds}s"
    if [r["expr"] for r in rules_of(short)] != [r["expr"] for r in rules_of(original)]:
        raise Failure("the shortened copy changed an expression")
    with open(target, "w") as f:
        yaml.safe_dump(short, f, sort_keys=False)
    return original


# ----------------------------------------------------------------------- test

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--classes", required=True)
    parser.add_argument("--rules", required=True)
    parser.add_argument("--alertmanager-config", required=True)
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--prometheus", default="/usr/bin/prometheus")
    parser.add_argument("--alertmanager", default="/usr/bin/prometheus-alertmanager")
    parser.add_argument("--for-seconds", type=int, default=5, help="the shortened `for:` of every rule")
    parser.add_argument("--budget-seconds", type=float, default=10, help="allowed beyond `for`, deadlock to webhook")
    args = parser.parse_args()

    for tool in (args.prometheus, args.alertmanager):
        if not os.access(tool, os.X_OK):
            print(f"[alerting] {tool} missing: install Debian's prometheus and prometheus-alertmanager "
                  "(scripts/quickstart.sh test does)")
            return 1
    found = jdks()
    if not found:
        print("[alerting] no JDK under /usr/lib/jvm")
        return 1

    run = Run()
    webhook = Webhook()
    problems = []
    prometheus = None
    try:
        # ------------------------------------------------------------ JVMs
        healthy_jdk, deadlocked_jdk = found[0], found[-1]
        has_virtual = deadlocked_jdk[0] >= 21
        say(f"healthy JVM: JDK {healthy_jdk[0]} ({healthy_jdk[1]}), ZGC; "
            f"deadlocked JVM: JDK {deadlocked_jdk[0]} ({deadlocked_jdk[1]}), G1")
        if not has_virtual:
            say("NOTE: no JDK 21+ under /usr/lib/jvm: the virtual-thread panels cannot have data; "
                "their queries are skipped")
        healthy, healthy_portfile = start_jvm(run, "healthy-jvm", healthy_jdk[1], "-XX:+UseZGC", "calm",
                                              args.agent, args.classes)
        dead, dead_portfile = start_jvm(run, "deadlocked-jvm", deadlocked_jdk[1], "-XX:+UseG1GC", "contended",
                                        args.agent, args.classes)
        warned_jdk = found[len(found) // 2]
        warned, warned_portfile = start_jvm(run, "warned-jvm", warned_jdk[1], "-XX:+UseSerialGC", "calm",
                                            args.agent, args.classes, ",stuck_threshold_ms=2000")
        ready = dead.line("READY", 60)
        healthy.line("READY", 60)
        warned.line("READY", 60)
        if has_virtual and ready != "READY virtual=1":
            raise Failure(f"JDK {deadlocked_jdk[0]} runs no virtual threads: {ready}")

        def port_of(portfile):
            def read():
                try:
                    with open(portfile) as f:
                        text = f.read().strip()
                    return int(text) if text else None
                except (OSError, ValueError):
                    return None
            return wait_until(f"the agent's portfile {portfile}", read, 30)

        healthy_instance = f"127.0.0.1:{port_of(healthy_portfile)}"
        dead_instance = f"127.0.0.1:{port_of(dead_portfile)}"
        warned_instance = f"127.0.0.1:{port_of(warned_portfile)}"
        say(f"agents: healthy {healthy_instance}, deadlocked {dead_instance}, warned {warned_instance} "
            f"(JDK {warned_jdk[0]})")
        targets = [healthy_instance, dead_instance, warned_instance]

        # ----------------------------------------------------- Alertmanager
        with open(args.alertmanager_config) as f:
            am_config = yaml.safe_load(f)
        for receiver in am_config["receivers"]:
            receiver.pop("webhook_configs", None)
            receiver["webhook_configs"] = [{"url": f"http://127.0.0.1:{webhook.port}/{receiver['name']}",
                                            "send_resolved": True}]
        am_config_path = os.path.join(run.dir, "alertmanager.yaml")
        with open(am_config_path, "w") as f:
            yaml.safe_dump(am_config, f)
        _, am_port = start_server(run, "alertmanager", lambda port: [
            args.alertmanager, f"--config.file={am_config_path}", f"--storage.path={run.dir}/alertmanager-data",
            f"--web.listen-address=127.0.0.1:{port}", "--cluster.listen-address=", "--log.level=warn"], "/-/ready")
        say(f"Alertmanager on 127.0.0.1:{am_port}, webhook on 127.0.0.1:{webhook.port}")

        # ------------------------------------------------------- Prometheus
        rules_copy = os.path.join(run.dir, "jvmsight-rules.yaml")
        rules = shortened_rules(args.rules, rules_copy, args.for_seconds)
        deadlock_rule = next(r for r in rules_of(rules) if r.get("alert") == "JvmDeadlocked")
        say(f"rules: every `for:` shortened to {args.for_seconds}s (JvmDeadlocked ships with for: {deadlock_rule['for']})")
        prom_config = {
            "global": {"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"},
            "rule_files": [rules_copy],
            "alerting": {"alertmanagers": [{"static_configs": [{"targets": [f"127.0.0.1:{am_port}"]}]}]},
            "scrape_configs": [{"job_name": JOB, "static_configs": [{"targets": targets}]}],
        }
        prometheus = start_prometheus(run, args.prometheus, prom_config)
        say(f"Prometheus on 127.0.0.1:{prometheus.port}")

        wait_until("every target up", lambda: sorted(
            t["labels"]["instance"] for t in prometheus.api("targets")["activeTargets"] if t["health"] == "up")
            == sorted(targets), 30, 0.2)
        group_names = {g["name"] for g in prometheus.api("rules")["groups"]}
        if group_names != {g["name"] for g in rules["groups"]}:
            raise Failure(f"Prometheus loaded rule groups {group_names}")
        wait_until("two scrapes of each agent (rates defined)", lambda: len(
            prometheus.query(f'rate(jvmsight_deadlock_checks_total{{job="{JOB}"}}[10s]) > 0')["result"]) == 3, 30, 0.2)

        def healthy_alerts():
            return [a for a in prometheus.alerts() if a["labels"].get("instance") == healthy_instance]

        def deadlock_alerts(instance):
            return [a for a in prometheus.alerts()
                    if a["labels"].get("alertname") == "JvmDeadlocked" and a["labels"].get("instance") == instance]

        # 5 starts here: the tickets route waits 30 s before it delivers, which
        # the deadlock and dashboard steps overlap.
        if [a for a in prometheus.alerts() if a["labels"].get("instance") == warned_instance]:
            raise Failure(f"the warned JVM has alerts before any warning: {prometheus.alerts()}")
        warned.send("stuck")
        say(f"warned JVM: {warned.line('STUCK', 30)}")
        warned.send("inversion")
        say(f"warned JVM: {warned.line('INVERSION', 60)}")

        # 1. Nothing before the deadlock.
        if deadlock_alerts(dead_instance) or deadlock_alerts(healthy_instance):
            raise Failure(f"JvmDeadlocked active before any deadlock: {prometheus.alerts()}")
        if healthy_alerts():
            problems.append(f"healthy JVM has alerts before the deadlock: {healthy_alerts()}")
        say("before the deadlock: JvmDeadlocked not active; healthy JVM has no alert")

        # 2. Deadlock -> webhook.
        dead.send("deadlock")
        line = dead.line("DEADLOCKED", 30)
        report = dict(kv.split("=", 1) for kv in line.split()[1:])
        entered = int(report["entered_ms"]) / 1000
        say(f"fixture: {line}")

        def delivered():
            return next(((at, path, a) for at, path, a in webhook.alerts()
                         if a["labels"].get("alertname") == "JvmDeadlocked" and a["status"] == "firing"
                         and a["labels"].get("instance") == dead_instance), None)

        budget = args.for_seconds + args.budget_seconds
        # Wait longer than the budget, so that a late delivery is measured and reported, not just missed.
        at, path, alert = wait_until("JvmDeadlocked at the webhook",
                                     lambda: delivered() or (time.time() > entered + budget + 30 and None),
                                     budget + 40, 0.01)
        latency = at - entered
        active = deadlock_alerts(dead_instance)
        active_at = active[0]["activeAt"] if active else "?"
        say(f"RESULT deadlock -> webhook: {latency:.2f} s (for: {args.for_seconds} s, so {latency - args.for_seconds:.2f} s "
            f"beyond it; budget {args.budget_seconds:.0f} s). The fixture's ThreadMXBean saw the cycle "
            f"{int(report['confirmed_ms']) / 1000 - entered:.3f} s after it formed; pending in Prometheus since {active_at}")
        if latency > budget:
            problems.append(f"JvmDeadlocked took {latency:.2f} s from the deadlock to the webhook, more than "
                            f"for ({args.for_seconds} s) + {args.budget_seconds:.0f} s")
        labels, annotations = alert["labels"], alert["annotations"]
        expect = {"severity": "critical", "job": JOB, "instance": dead_instance}
        if any(labels.get(k) != v for k, v in expect.items()):
            problems.append(f"delivered labels {labels}, expected {expect}")
        if path != "/pager":
            problems.append(f"JvmDeadlocked went to receiver {path}, not the example's pager route")
        if dead_instance not in annotations.get("summary", "") or not annotations.get("runbook_url", "").startswith(
                "docs/LOCKS.md"):
            problems.append(f"delivered annotations {annotations}")

        # 3. The link in the description shows the cycle.
        link = re.search(r"http://([\d.]+):(\d+)(/deadlocks)", annotations.get("description", ""))
        if not link or f"{link.group(1)}:{link.group(2)}" != dead_instance:
            problems.append(f"no /deadlocks link to {dead_instance} in: {annotations.get('description')}")
        else:
            status, body = http_get(int(link.group(2)), link.group(3))
            if status != 200 or '"dl-a"' not in body or '"dl-b"' not in body:
                problems.append(f"{link.group(0)} answered {status}: {body[:300]}")
            else:
                say(f"{link.group(0)} shows the cycle of dl-a and dl-b")

        if healthy_alerts():
            problems.append(f"healthy JVM has alerts: {healthy_alerts()}")

        # 4. Every dashboard query returns data.
        dashboard = gd.load(args.dashboard)
        variables = gd.variables(dashboard)
        job_selector, job_label = gd.label_values_query(variables["job"]["definition"])
        jobs = prometheus.api(f"label/{job_label}/values", {"match[]": job_selector})
        if JOB not in jobs:
            problems.append(f"variable job ({variables['job']['definition']}) lists {jobs}, not {JOB}")
        values = {"job": variables["job"]["allValue"], "datasource": "prometheus"}
        inst_selector, inst_label = gd.label_values_query(variables["instance"]["definition"])
        instances = prometheus.api(f"label/{inst_label}/values",
                                   {"match[]": gd.substitute(inst_selector, values)})
        if sorted(instances) != sorted(targets):
            problems.append(f"variable instance lists {instances}")
        values["instance"] = gd.multi_value(targets)

        queries = list(gd.queries(dashboard))
        pending = {}
        for title, ref, expr in queries:
            if not has_virtual and any(n.startswith("jvmsight_virtual_threads_") and n != "jvmsight_virtual_threads_supported"
                                       for n in gd.metric_names(expr)):
                say(f"SKIPPED (no JDK 21+ here: no virtual threads to show): {title}/{ref}")
                continue
            pending[(title, ref)] = gd.substitute(expr, values)
        answered = {}

        def all_answered():
            for key, expr in list(pending.items()):
                samples = finite_samples(prometheus.query(expr))
                if samples:
                    answered[key] = len(samples)
                    del pending[key]
            return not pending

        try:
            wait_until("data for every dashboard query", all_answered, 60, 0.5)
        except Failure:
            for (title, ref), expr in pending.items():
                problems.append(f"dashboard query without data: {title}/{ref}: {expr}")
        say(f"dashboard: {len(answered)} of {len(queries)} queries return data "
            f"({len(queries) - len(answered) - len(pending)} skipped)")
        for p in gd.panels(dashboard):
            for t in p.get("targets", []):
                key = (p.get("title"), t.get("refId"))
                if key in answered:
                    print(f"    {answered[key]:3d} series  {key[0]} / {key[1]}")
        status, body = http_get(int(dead_instance.split(":")[1]), "/threads")
        if status != 200 or '"vault-holder"' not in body:
            problems.append(f"the lock-queue table's link /threads answered {status}")

        if healthy_alerts():
            problems.append(f"healthy JVM has alerts: {healthy_alerts()}")

        # 5. The warnings before a deadlock fire, reach the webhook, and resolve.
        warnings = ["JvmThreadsStuck", "JvmLockOrderInversion"]

        def warned_delivered():
            names = {a["labels"].get("alertname") for _, path, a in webhook.alerts()
                     if a["labels"].get("instance") == warned_instance and a["status"] == "firing"
                     and a["labels"].get("severity") == "warning" and path == "/tickets"}
            return all(w in names for w in warnings)

        wait_until(f"{' and '.join(warnings)} at the webhook for the warned JVM", warned_delivered, 90, 0.2)
        say(f"{', '.join(warnings)} delivered for {warned_instance} (tickets route)")
        status, body = http_get(int(warned_instance.split(":")[1]), "/deadlocks")
        if status != 200 or "AlertingWorkload$InversionLeft" not in body or "inversion-ba" not in body:
            problems.append(f"/deadlocks of the warned JVM answered {status}: {body[:400]}")
        warned.send("unstick")
        warned.line("UNSTUCK", 30)
        warned.send("forget")
        warned.line("FORGOTTEN", 60)

        def warnings_active():
            in_prometheus = [a for a in prometheus.alerts() if a["labels"].get("instance") == warned_instance]
            _, body = http_get(am_port, "/api/v2/alerts")
            in_alertmanager = [a for a in json.loads(body or "[]")
                               if a["labels"].get("instance") == warned_instance]
            return in_prometheus or in_alertmanager

        wait_until("the warnings to resolve in Prometheus and Alertmanager", lambda: not warnings_active(), 60, 0.2)
        say(f"{', '.join(warnings)} resolved for {warned_instance} while it runs on")

        # 6. A JVM that stands still for safepoints fires JvmStoppedTooLong. Its window is 5 minutes
        #    (not shortened), so it takes 30 s stopped: System.gc() back to back is the fastest way.
        dead.send("stop")
        dead.line("STOPPING", 30)
        storm = time.monotonic()

        def stopped_firing():
            return next((a for a in prometheus.alerts() if a["labels"].get("alertname") == "JvmStoppedTooLong"
                         and a["state"] == "firing" and a["labels"].get("instance") == dead_instance), None)

        stopped = wait_until("JvmStoppedTooLong firing", stopped_firing, args.for_seconds + 90, 0.2)
        say(f"JvmStoppedTooLong firing {time.monotonic() - storm:.1f} s after the collections began: "
            f"{stopped['annotations'].get('summary')}")

        # 7. A silent agent cannot hide the deadlock.
        dead.kill()
        killed = time.monotonic()
        say("deadlocked JVM killed")

        def agent_down_firing():
            return [a for a in prometheus.alerts() if a["labels"].get("alertname") == "JvmsightAgentDown"
                    and a["labels"].get("instance") == dead_instance and a["state"] == "firing"]

        wait_until("JvmsightAgentDown firing for the killed JVM", agent_down_firing, args.for_seconds + 30, 0.2)
        say(f"JvmsightAgentDown firing for {dead_instance} {time.monotonic() - killed:.1f} s after the kill")
        wait_until("JvmDeadlocked to resolve once the series went stale",
                   lambda: not deadlock_alerts(dead_instance), 30, 0.2)

        # 8. The healthy JVM, all along.
        if healthy_alerts():
            problems.append(f"healthy JVM has alerts: {healthy_alerts()}")
        to_healthy = [a for _, _, a in webhook.alerts() if a["labels"].get("instance") == healthy_instance]
        if to_healthy:
            problems.append(f"notifications delivered for the healthy JVM: {to_healthy}")
        if not healthy.running():
            problems.append("the healthy JVM exited")
        say(f"healthy JVM {healthy_instance}: no alert in Prometheus, none delivered")
        delivered_all = sorted({(a["labels"].get("alertname"), a["labels"].get("instance"), a["status"])
                                for _, _, a in webhook.alerts()})
        say(f"all notifications delivered: {delivered_all}")
    except Failure as e:
        problems.append(str(e))
    finally:
        if problems:
            if prometheus is not None:
                try:
                    print("--- Prometheus alerts ---\n" + json.dumps(prometheus.alerts(), indent=1)[:4000])
                except Failure as e:
                    print(f"(no alerts from Prometheus: {e})")
            print("--- webhook ---\n" + json.dumps(webhook.alerts(), indent=1)[:4000])
            run.diagnostics()
        webhook.close()
        run.close()
    for p in problems:
        print("FAIL:", p)
    say("PASSED" if not problems else f"FAILED ({len(problems)} problems)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
