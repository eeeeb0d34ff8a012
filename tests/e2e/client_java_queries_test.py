#!/usr/bin/python3
"""Public JVM dashboards and alert rules written for client_java, against jvmsight.

Debian's prometheus scrapes one JVM with the agent per JDK under /usr/lib/jvm
(RuntimeTruth "busy": steady allocation, so collections keep coming), with the
Parallel collector and a bounded Metaspace, and the target labels a Kubernetes
scrape adds (namespace, pod). Every query of client_java/public_queries.yaml
(two 0.x dashboards, one 1.x dashboard, one public alert rule set), with its
variables substituted as Grafana would for each JVM, must return samples with
finite values; each dashboard variable's query must list the JVM. Everything
listens on 127.0.0.1.
"""
import argparse
import os
import re
import sys
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from alerting_e2e import (Failure, Run, finite_samples, jdks, say, start_prometheus,  # noqa: E402
                          wait_until)

JOB = "client-java-dashboards"
NAMESPACE = "shop"
RATE_INTERVAL = "15s"  # Grafana's $__rate_interval: 4 scrape intervals and more


def start_jvms(run, agent, classes):
    jvms = []
    for feature, home in jdks():
        name = f"jdk{feature}"
        portfile = os.path.join(run.dir, name + ".port")
        argv = [os.path.join(home, "bin", "java"), "-XX:+UseParallelGC", "-Xmx64m", "-XX:MaxMetaspaceSize=128m",
                f"-agentpath:{agent}=port=0,host=127.0.0.1,portfile={portfile}",
                "-cp", classes, "RuntimeTruth", "busy"]
        proc = run.spawn(name, argv, stdin=True)
        jvms.append({"name": name, "proc": proc, "portfile": portfile, "pod": f"jvm-{name}"})
    if not jvms:
        raise Failure("no JDK under /usr/lib/jvm")
    for j in jvms:
        def port():
            try:
                with open(j["portfile"]) as f:
                    return int(f.read().strip() or 0)
            except (OSError, ValueError):
                return 0
        j["port"] = wait_until(f"{j['name']}'s portfile", port, 60, 0.1)
        j["instance"] = f"127.0.0.1:{j['port']}"
    return jvms


def label_values(prometheus, query):
    """Grafana's label_values(selector, label): the label's values among the selector's series."""
    m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", query.strip())
    if not m:
        raise Failure(f"not a label_values query: {query}")
    selector, label = m.groups()
    return {s["metric"].get(label) for s in prometheus.query(selector)["result"]}


def substitute(expr, values):
    for name, value in values.items():
        expr = expr.replace("$" + name, value)
    return expr


def check_source(prometheus, source, jvm, problems):
    values = {"namespace": NAMESPACE, "pod": jvm["pod"], "job": JOB, "instance": jvm["instance"],
              "__rate_interval": RATE_INTERVAL}
    for var, query in source.get("variables", {}).items():
        listed = label_values(prometheus, substitute(query, values))
        want = {"namespace": NAMESPACE, "pod": jvm["pod"], "job": JOB, "instance": jvm["instance"]}[var]
        if want not in listed:
            problems.append(f"{source['name']} variable ${var} does not list {want}: {sorted(v for v in listed if v)}")
    for q in source["queries"]:
        expr = substitute(q.get("data", q["expr"]), values)
        if source["kind"] == "rules":  # rules have no variables: keep to this JVM's series
            expr = re.sub(r"\b(jvm_\w+|process_\w+)(\{|\b)", lambda m: m.group(1) + "{instance=\"" +
                          jvm["instance"] + "\"" + ("," if m.group(2) == "{" else "}"), expr)
        what = q.get("panel") or q.get("alert")
        try:
            samples = finite_samples(prometheus.query(expr))
        except Failure as e:
            problems.append(f"{jvm['name']}: {source['name']} / {what}: {e}")
            continue
        if not samples:
            problems.append(f"{jvm['name']}: {source['name']} / {what}: no data for {expr}")
    say(f"{jvm['name']}: {source['name']}: {len(source['queries'])} queries checked")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--classes", required=True)
    parser.add_argument("--queries", required=True)
    parser.add_argument("--prometheus", default="/usr/bin/prometheus")
    args = parser.parse_args()
    with open(args.queries) as f:
        sources = yaml.safe_load(f)["sources"]
    run = Run()
    problems = []
    try:
        jvms = start_jvms(run, args.agent, args.classes)
        config = {
            "global": {"scrape_interval": "1s", "scrape_timeout": "1s"},
            "scrape_configs": [{"job_name": JOB, "static_configs": [
                {"targets": [j["instance"]], "labels": {"namespace": NAMESPACE, "pod": j["pod"]}} for j in jvms]}],
        }
        prometheus = start_prometheus(run, args.prometheus, config)
        # Rates over 15 s and 1 m need a few samples, and the allocation
        # counter a collection, in every JVM.
        wait_until("every JVM scraped with allocation counted", lambda: len(prometheus.query(
            f'count_over_time(jvm_memory_pool_allocated_bytes_total{{job="{JOB}",pool="PS Eden Space"}}[1m]) > 4'
        )["result"]) == len(jvms), 60, 0.5)
        for jvm in jvms:
            for source in sources:
                check_source(prometheus, source, jvm, problems)
    except Failure as e:
        problems.append(str(e))
    finally:
        if problems:
            run.diagnostics()
        run.close()
    for p in problems:
        print("FAIL:", p)
    total = sum(len(s["queries"]) for s in sources)
    say(f"{total} public queries x {len(jvms) if 'jvms' in dir() else 0} JVMs: "
        + ("PASSED" if not problems else f"FAILED ({len(problems)} problems)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
