#!/usr/bin/python3
"""Static checks of the Grafana dashboard and of the names in the rule file.

- the dashboard is provisionable: a uid, a Prometheus datasource variable used by
  every panel and query, job and instance variables keyed on
  jvmsight_build_info (a family the agent always serves), panels inside the
  24-column grid without overlaps, unique panel ids and refIds;
- every dashboard query, with its variables substituted, passes promtool's parser;
- every metric name in the dashboard and in the rule file is one the agent serves
  (docs/METRICS.md), one of Prometheus' own (up, ALERTS), a recording rule of the
  rule file, or one of the OTLP path's names that docs/ALERTING.md lists.

Usage: dashboard_test.py <dashboard.json> <rules.yaml> <METRICS.md> <ALERTING.md> [promtool]
Whether each query returns data from real JVMs is alerting_e2e.py's job.
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grafana_dashboard as gd  # noqa: E402

PROMETHEUS_OWN = {"up", "ALERTS"}
# Names only the OTLP path produces (after a collector's Prometheus translation).
OTLP_NAMES = {"jvm_thread_count", "jvmsight_threads_deadlocked"}

problems = []


def check(ok, message):
    if not ok:
        problems.append(message)
    return ok


def documented_names(metrics_md):
    with open(metrics_md) as f:
        return set(re.findall(r"`([a-z_:][a-z0-9_:]*)`", f.read()))


def is_served(name, documented):
    if name in documented:
        return True
    base = re.sub(r"_(bucket|sum|count)$", "", name)
    return base != name and base in documented


def main():
    dashboard_path, rules_path, metrics_md, alerting_md = sys.argv[1:5]
    promtool = sys.argv[5] if len(sys.argv) > 5 else "/usr/bin/promtool"
    dashboard = gd.load(dashboard_path)
    with open(rules_path) as f:
        rules = yaml.safe_load(f)
    with open(alerting_md) as f:
        alerting_doc = f.read()

    # Provisioning: identity and variables.
    check(re.fullmatch(r"[\w-]{1,40}", dashboard.get("uid", "")), "dashboard needs a short fixed uid")
    variables = gd.variables(dashboard)
    ds = variables.get("datasource", {})
    check(ds.get("type") == "datasource" and ds.get("query") == "prometheus",
          "a datasource variable of type prometheus named 'datasource'")
    for name, label in (("job", "job"), ("instance", "instance")):
        v = variables.get(name)
        if not check(v is not None and v.get("type") == "query", f"a query variable '{name}'"):
            continue
        check(v.get("datasource", {}).get("uid") == "${datasource}", f"variable {name} uses ${{datasource}}")
        selector, of_label = gd.label_values_query(v["definition"])
        check(of_label == label, f"variable {name} lists the label {label}")
        check(gd.metric_names(selector) == {"jvmsight_build_info"},
              f"variable {name} is keyed on jvmsight_build_info, not {selector}")
        check(v.get("includeAll") and v.get("multi"), f"variable {name}: multi-value with All")
    check("job" in variables["instance"]["definition"], "the instance variable follows the job variable")

    # Panels: datasource, ids, grid.
    ids, cells = set(), {}
    for p in gd.panels(dashboard):
        title = p.get("title", "?")
        check(p.get("id") not in ids, f"panel id {p.get('id')} twice")
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        check(0 <= g.get("x", -1) and g.get("x", 0) + g.get("w", 99) <= 24, f"panel '{title}' outside the grid")
        for x in range(g.get("x", 0), g.get("x", 0) + g.get("w", 0)):
            for y in range(g.get("y", 0), g.get("y", 0) + g.get("h", 0)):
                check((x, y) not in cells, f"panel '{title}' overlaps '{cells.get((x, y))}'")
                cells[(x, y)] = title
        if p.get("type") == "row":
            continue
        check(p.get("datasource", {}).get("uid") == "${datasource}", f"panel '{title}' uses ${{datasource}}")
        refs = [t.get("refId") for t in p.get("targets", [])]
        check(refs and len(refs) == len(set(refs)), f"panel '{title}' has queries with unique refIds")
        for t in p.get("targets", []):
            check(t.get("datasource", {}).get("uid") == "${datasource}",
                  f"query {title}/{t.get('refId')} uses ${{datasource}}")
            check('job=~"$job"' in t.get("expr", "") and 'instance=~"$instance"' in t.get("expr", ""),
                  f"query {title}/{t.get('refId')} selects job=~\"$job\" and instance=~\"$instance\"")

    # The deadlock panel links to the instance's /deadlocks.
    links = [l["url"] for p in gd.panels(dashboard) for l in p.get("fieldConfig", {}).get("defaults", {}).get("links", [])]
    check("http://${__field.labels.instance}/deadlocks" in links, "a data link to the instance's /deadlocks")

    # Every query parses: as recording rules through promtool.
    values = {"job": gd.multi_value(["a-job"]), "instance": gd.multi_value(["127.0.0.1:9404", "127.0.0.1:9405"]),
              "datasource": "prometheus"}
    exprs = [(f"{title}/{ref}", gd.substitute(expr, values)) for title, ref, expr in gd.queries(dashboard)]
    for name in ("job", "instance"):
        selector, _ = gd.label_values_query(variables[name]["definition"])
        exprs.append((f"variable {name}", gd.substitute(selector, values)))
    check(len(exprs) >= 30, f"only {len(exprs)} queries found")
    doc = {"groups": [{"name": "dashboard", "rules": [{"record": f"dashboard:query_{i}:parse", "expr": e}
                                                      for i, (_, e) in enumerate(exprs)]}]}
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
        yaml.safe_dump(doc, f)
        f.flush()
        r = subprocess.run([promtool, "check", "rules", f.name], capture_output=True, text=True, timeout=60)
        if not check(r.returncode == 0, "promtool cannot parse every dashboard query"):
            print(r.stdout + r.stderr)
            for i, (where, e) in enumerate(exprs):
                print(f"  query_{i}: {where}: {e}")
    print(f"{len(exprs)} dashboard queries parsed by promtool")

    # Names: only what the agent serves, Prometheus' own, recording rules, OTLP names.
    documented = documented_names(metrics_md)
    recorded = {r["record"] for g in rules["groups"] for r in g["rules"] if "record" in r}
    for name in OTLP_NAMES:
        check(f"`{name}`" in alerting_doc, f"OTLP name {name} is not listed in {alerting_md}")
    sources = [(f"dashboard {w}", e) for w, e in exprs]
    sources += [(f"rule {r.get('alert') or r.get('record')}", r["expr"]) for g in rules["groups"] for r in g["rules"]]
    for where, e in sources:
        for name in gd.metric_names(e):
            check(is_served(name, documented) or name in PROMETHEUS_OWN or name in recorded or name in OTLP_NAMES,
                  f"{where}: {name} is not a metric jvmsight serves (docs/METRICS.md)")

    for p in problems:
        print("FAIL:", p)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
