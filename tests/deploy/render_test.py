#!/usr/bin/python3
"""Renders the Kubernetes manifests and the Helm chart with the real tools,
validates every object against the Kubernetes schemas (validate.js), and
asserts the injected fields with a YAML parser.

  render_test.py kustomize <source-dir> <tools-dir> <version>
  render_test.py helm      <source-dir> <tools-dir> <version>
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

import deploytest as dt

POD = {"metadata.name": "app-5f7c9-x2x7k", "metadata.namespace": "shop", "spec.nodeName": "node-7"}
RESOURCE_ATTRIBUTES = "k8s.pod.name=app-5f7c9-x2x7k,k8s.namespace.name=shop,k8s.node.name=node-7"


class Checks:
    def __init__(self, src, tools, version):
        self.src, self.tools, self.version = Path(src), Path(tools), version
        self.work = Path(tempfile.mkdtemp(prefix="jvmsight-render-"))
        self.passed = 0

    def tool(self, name, *args, ok=True, cwd=None):
        p = subprocess.run([str(self.tools / "bin" / name), *map(str, args)], capture_output=True,
                           text=True, timeout=120, cwd=cwd)
        if ok and p.returncode != 0:
            dt.fail(f"{name} {' '.join(map(str, args))} exited {p.returncode}:\n{p.stderr}")
        return p

    def validate(self, text, label):
        return dt.validate_manifests(self.src, self.tools, self.work, text, label)

    def ok(self, what):
        self.passed += 1
        print(f"ok: {what}")


def by_kind(objs, kind, name=None):
    found = [o for o in objs if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]
    if len(found) != 1:
        dt.fail(f"expected one {kind} {name or ''}, found {len(found)}")
    return found[0]


def env_list(container):
    return {e["name"]: e for e in container.get("env", [])}


def check_pod(pod, version, mount, port, own_options, own_attributes, options, where):
    """What injection must have made of a pod template (both ways inject)."""
    spec = pod["spec"]
    inits = [c for c in spec.get("initContainers", []) if c["name"] == "jvmsight-agent"]
    if len(inits) != 1:
        dt.fail(f"{where}: no jvmsight-agent init container")
    init = inits[0]
    if not init["image"].endswith(f"jvmsight-agent:{version}"):
        dt.fail(f"{where}: init image {init['image']}, expected jvmsight-agent:{version}")
    if {m["name"]: m["mountPath"] for m in init["volumeMounts"]} != {"jvmsight-agent": "/jvmsight"}:
        dt.fail(f"{where}: the init container must mount the volume at /jvmsight, where the image copies to")
    sc = init.get("securityContext", {})
    if not (sc.get("runAsNonRoot") and sc.get("readOnlyRootFilesystem") and sc.get("allowPrivilegeEscalation") is False):
        dt.fail(f"{where}: init container securityContext not restricted: {sc}")
    volumes = {v["name"]: v for v in spec["volumes"]}
    if "emptyDir" not in volumes.get("jvmsight-agent", {}):
        dt.fail(f"{where}: jvmsight-agent volume must be an emptyDir: {volumes.get('jvmsight-agent')}")
    app = spec["containers"][0]
    mounts = [m for m in app["volumeMounts"] if m["name"] == "jvmsight-agent"]
    if mounts != [{"name": "jvmsight-agent", "mountPath": mount, "readOnly": True}]:
        dt.fail(f"{where}: app mount {mounts}")
    ports = [p for p in app["ports"] if p["name"] == "jvmsight"]
    if len(ports) != 1 or ports[0]["containerPort"] != port:
        dt.fail(f"{where}: jvmsight port {ports}, expected {port}")
    env = dt.kubelet_env(app, POD)
    jto = env.get("JAVA_TOOL_OPTIONS", "").split()
    if jto[:-1] != own_options or not jto[-1].startswith("-agentpath:"):
        dt.fail(f"{where}: JAVA_TOOL_OPTIONS {jto}, expected {own_options} then the agent")
    path, opts = dt.agent_options(env["JAVA_TOOL_OPTIONS"])
    if path != f"{mount}/libjvmsight-loader.so":
        dt.fail(f"{where}: agent path {path}, expected {mount}/libjvmsight-loader.so (the fail-open loader)")
    if opts != options:
        dt.fail(f"{where}: agent options {opts}, expected {options}")
    if int(opts["port"]) != port:
        dt.fail(f"{where}: agent port {opts['port']} is not the declared containerPort {port}")
    attrs = [a for a in env.get("OTEL_RESOURCE_ATTRIBUTES", "").split(",") if a]
    if attrs != own_attributes + RESOURCE_ATTRIBUTES.split(","):
        dt.fail(f"{where}: OTEL_RESOURCE_ATTRIBUTES as the kubelet expands it: {attrs}")
    return app


# ---------------------------------------------------------------- kustomize

def kustomize(c):
    settings = yaml.safe_load((c.src / "deploy/kubernetes/components/jvmsight/agent/settings.yaml").read_text())
    _, options = dt.agent_options(settings["spec"]["javaToolOptions"])
    if options.get("details") != "off":
        dt.fail(f"the component must keep /threads and /deadlocks off by default: {options}")

    demo = c.validate(c.tool("kubectl", "kustomize", c.src / "deploy/kubernetes/demo").stdout, "demo")
    kinds = sorted(o["kind"] for o in demo)
    if kinds != ["ConfigMap", "Deployment", "Namespace", "PodMonitor"]:
        dt.fail(f"demo renders {kinds} (the component's settings objects must stay local)")
    dep = by_kind(demo, "Deployment")
    pod = dep["spec"]["template"]
    check_pod(pod, c.version, "/jvmsight", 9404, ["-XX:MaxRAMPercentage=75"], [], options, "demo")
    ann = pod["metadata"]["annotations"]
    if ann != {"prometheus.io/scrape": "true", "prometheus.io/port": "9404", "prometheus.io/path": "/metrics"}:
        dt.fail(f"demo: scrape annotations {ann}")
    pm = by_kind(demo, "PodMonitor")
    labels = pod["metadata"]["labels"]
    if any(labels.get(k) != v for k, v in pm["spec"]["selector"]["matchLabels"].items()):
        dt.fail(f"demo: PodMonitor selector {pm['spec']['selector']} misses the pod labels {labels}")
    if pm["spec"]["podMetricsEndpoints"][0]["port"] != "jvmsight" or pm["metadata"]["namespace"] != "jvmsight-demo":
        dt.fail(f"demo: PodMonitor {pm['spec']} / namespace {pm['metadata'].get('namespace')}")
    c.ok("demo: component injected, schemas valid, PodMonitor selects the pod's port")

    objs = c.validate(c.tool("kubectl", "kustomize", c.src / "tests/deploy/kustomize/workloads").stdout, "workloads")
    full = by_kind(objs, "StatefulSet", "full")["spec"]["template"]
    app = check_pod(full, c.version, "/jvmsight", 9404, ["-Xmx1g", "-Dfile.encoding=UTF-8"],
                    ["service.name=full", "deployment.environment=test"], options, "statefulset")
    if env_list(app)["OTHER"]["value"] != "kept" or [p["name"] for p in app["ports"]] != ["http", "jvmsight"]:
        dt.fail(f"statefulset: the workload's own env or ports were not kept: {app}")
    if [m["name"] for m in app["volumeMounts"]] != ["data", "jvmsight-agent"]:
        dt.fail(f"statefulset: mounts {app['volumeMounts']}")
    if sorted(i["name"] for i in full["spec"]["initContainers"]) != ["jvmsight-agent", "migrate"]:
        dt.fail(f"statefulset: init containers {full['spec']['initContainers']}")
    if full["spec"]["containers"][1] != {"name": "sidecar", "image": "busybox",
                                         "env": [{"name": "JAVA_TOOL_OPTIONS", "value": "-Dsidecar=untouched"}]}:
        dt.fail(f"statefulset: the second container was changed: {full['spec']['containers'][1]}")
    if full["metadata"]["annotations"].get("team") != "storage":
        dt.fail("statefulset: the pod's own annotations were lost")
    c.ok("statefulset with its own env, ports, mounts, init container and sidecar: kept, agent appended")

    bare = by_kind(objs, "Deployment", "bare")["spec"]["template"]
    check_pod(bare, c.version, "/jvmsight", 9404, [], [], options, "bare deployment")
    job = by_kind(objs, "Job", "other")["spec"]["template"]["spec"]
    if "initContainers" in job or "env" in job["containers"][0]:
        dt.fail(f"a Job was injected: {job}")
    c.ok("bare deployment: every list created; Job left alone")


# ---------------------------------------------------------------- helm

DEFAULT_OPTIONS = {"port": "9404", "host": "0.0.0.0", "details": "off", "log": "info",
                   "native_states": "auto", "deadlock_check_ms": "500", "contention": "on",
                   "contention_sampling": "1000", "lock_classes": "20", "gc_notifications": "auto",
                   "gc_span_min_ms": "0"}


def helm_template(c, chart, *args, ok=True):
    """As on a cluster that serves the Prometheus operator's API (the
    chart renders its objects only there: chart_injector_test.py checks
    a cluster without it)."""
    return c.tool("helm", "template", "rel", chart, "--namespace", "shop",
                  "--api-versions", "monitoring.coreos.com/v1", *args, ok=ok)


def helm(c):
    chart = c.src / "helm/jvmsight"
    meta = yaml.safe_load((chart / "Chart.yaml").read_text())
    values = yaml.safe_load((chart / "values.yaml").read_text())
    if not (meta["appVersion"] == values["image"]["tag"] == c.version):
        dt.fail(f"appVersion {meta['appVersion']}, image.tag {values['image']['tag']}, project {c.version} differ")
    c.tool("helm", "lint", chart)
    c.tool("helm", "lint", chart, "--strict")
    c.ok("helm lint (default values), versions agree")

    # Default values: the monitoring side is one PodMonitor over injected
    # pods and the alert rules (deadlocks).
    objs = c.validate(helm_template(c, chart).stdout, "chart-default")
    pm = by_kind(objs, "PodMonitor")
    if (sorted(o["kind"] for o in objs) != ["PodMonitor", "PrometheusRule"]
            or pm["spec"]["selector"]["matchLabels"] != {"jvmsight/injected": "true"}):
        dt.fail(f"default chart renders {[o['kind'] for o in objs]}, selector {pm['spec']['selector']}")
    c.ok("default values: a PodMonitor selecting jvmsight/injected pods and the PrometheusRule")

    # Value set: ServiceMonitor instead, with intervals and labels.
    sm_values = ["--set", "podMonitor.enabled=false", "--set", "serviceMonitor.enabled=true",
                 "--set", "serviceMonitor.interval=15s", "--set", "serviceMonitor.labels.release=kps",
                 "--set", "agent.port=9500"]
    c.tool("helm", "lint", chart, *sm_values)
    objs = c.validate(helm_template(c, chart, *sm_values).stdout, "chart-servicemonitor")
    svc, sm = by_kind(objs, "Service"), by_kind(objs, "ServiceMonitor")
    if svc["spec"]["selector"] != {"jvmsight/injected": "true"} or svc["spec"]["ports"][0]["port"] != 9500:
        dt.fail(f"metrics Service {svc['spec']}")
    if any(svc["metadata"]["labels"].get(k) != v for k, v in sm["spec"]["selector"]["matchLabels"].items()):
        dt.fail(f"ServiceMonitor selector {sm['spec']['selector']} misses the Service labels")
    if sm["metadata"]["labels"].get("release") != "kps" or sm["spec"]["endpoints"][0]["interval"] != "15s":
        dt.fail(f"ServiceMonitor {sm}")
    c.ok("serviceMonitor values: headless Service + ServiceMonitor, labels and interval applied")

    # Value set: nothing but the injection templates.
    off = ["--set", "podMonitor.enabled=false", "--set", "prometheusRule.enabled=false"]
    c.tool("helm", "lint", chart, *off)
    out = helm_template(c, chart, *off).stdout
    if [d for d in yaml.safe_load_all(out) if d]:
        dt.fail(f"podMonitor and prometheusRule off still renders objects:\n{out}")
    c.ok("podMonitor and prometheusRule off: no objects")

    # Invalid values: rejected, saying which value and why.
    for args, expect in [
        (["--set", "agent.port=70000"], "agent.port"),
        (["--set", "agent.log=verbose"], "agent.log"),
        (["--set", "agent.details=remote"], "agent.details"),
        (["--set", "agent.deadlockCheckMs=10"], "agent.deadlockCheckMs"),
        (["--set", "agent.contentionSampling=sometimes"], "agent.contentionSampling"),
        (["--set", "agent.host=0.0.0.0\\,details=on"], "agent.host"),  # an option smuggled in
        (["--set", "agent.host=metrics.example"], "agent.host"),
        (["--set", "agent.prot=9404"], "Additional property prot is not allowed"),
        (["--set", "agent.contentionSampling=50"], "agent.contentionSampling 50 is outside"),
        (["--set", "agent.extraOptions=oops"], "agent.extraOptions"),
        (["--set", "injection.mountPath=relative/path"], "injection.mountPath"),
        (["--set", "image.digest=latest"], "image.digest"),
        (["--set", "serviceMonitor.enabled=true"], "podMonitor.enabled and serviceMonitor.enabled are both true"),
    ]:
        p = helm_template(c, chart, *args, ok=False)
        if p.returncode == 0 or expect not in p.stderr:
            dt.fail(f"helm template {args} should fail naming {expect!r}; exit {p.returncode}: {p.stderr}")
    p = c.tool("helm", "lint", chart, "--set", "agent.port=70000", ok=False)
    if p.returncode == 0:
        dt.fail("helm lint accepts agent.port=70000")
    c.ok("invalid values rejected by the schema (or the one cross-field check) with the value named")

    rules_and_dashboard(c, chart)
    packaged_files(c, chart)
    example_app(c)


def chart_copy(c, name, rules=None, dashboard=None):
    """A temporary copy of the chart whose files/deploy link points at a
    stand-in deploy/ with the given rule file and dashboard (or none)."""
    root = c.work / name
    shutil.copytree(c.src / "helm/jvmsight", root / "helm/jvmsight", symlinks=True)
    (root / "deploy/prometheus").mkdir(parents=True)
    (root / "deploy/grafana").mkdir(parents=True)
    if rules is not None:
        (root / "deploy/prometheus/jvmsight-rules.yaml").write_text(rules)
    if dashboard is not None:
        (root / "deploy/grafana/jvmsight-dashboard.json").write_text(dashboard)
    return root / "helm/jvmsight"


STAND_IN_RULES = """\
groups:
  - name: stand-in-jvmsight
    rules:
      - alert: StandInDeadlock
        expr: jvm_threads_deadlocked > 0
        for: 1m
        labels: {severity: critical}
        annotations:
          summary: "Deadlock in {{ $labels.pod }}"
      - record: stand_in:jvm_threads_blocked:sum
        expr: sum by (namespace) (jvm_threads_state{state="BLOCKED"})
"""
STAND_IN_DASHBOARD = '{"title": "stand-in", "panels": [{"type": "stat", "title": "{{ not a template }}"}]}\n'


def rules_and_dashboard(c, chart):
    enable = ["--set", "prometheusRule.enabled=true", "--set", "prometheusRule.labels.release=kps",
              "--set", "dashboard.enabled=true", "--set", "dashboard.labels.team=jvm"]
    sources = [("stand-in", chart_copy(c, "with-files", STAND_IN_RULES, STAND_IN_DASHBOARD),
                STAND_IN_RULES, STAND_IN_DASHBOARD)]
    real_rules = c.src / "deploy/prometheus/jvmsight-rules.yaml"
    real_dashboard = c.src / "deploy/grafana/jvmsight-dashboard.json"
    if real_rules.exists() and real_dashboard.exists():
        sources.append(("repository", chart, real_rules.read_text(), real_dashboard.read_text()))
    for label, source_chart, rules, dashboard in sources:
        objs = c.validate(helm_template(c, source_chart, *enable).stdout, f"chart-rules-{label}")
        rule = by_kind(objs, "PrometheusRule")
        if rule["spec"]["groups"] != yaml.safe_load(rules)["groups"]:
            dt.fail(f"{label}: PrometheusRule groups differ from the rule file")
        if rule["metadata"]["labels"].get("release") != "kps":
            dt.fail(f"{label}: prometheusRule.labels not applied")
        cm = by_kind(objs, "ConfigMap")
        if cm["data"]["jvmsight-dashboard.json"].strip() != dashboard.strip():
            dt.fail(f"{label}: dashboard ConfigMap differs from the JSON file")
        if cm["metadata"]["labels"].get("grafana_dashboard") != "1" or cm["metadata"]["labels"].get("team") != "jvm":
            dt.fail(f"{label}: dashboard labels {cm['metadata']['labels']}")
        c.ok(f"{label} files: PrometheusRule groups equal the rule file's, dashboard ConfigMap equals the JSON")

    # Rules on and dashboard off by default when the files are there; the
    # rules stay off only when turned off.
    objs = [d for d in yaml.safe_load_all(helm_template(c, sources[0][1]).stdout) if d]
    if sorted(o["kind"] for o in objs) != ["PodMonitor", "PrometheusRule"]:
        dt.fail(f"default values with the files render {[o['kind'] for o in objs]}")
    objs = [d for d in yaml.safe_load_all(helm_template(c, sources[0][1], "--set", "prometheusRule.enabled=false")
                                          .stdout) if d]
    if sorted(o["kind"] for o in objs) != ["PodMonitor"]:
        dt.fail(f"prometheusRule.enabled=false still renders {[o['kind'] for o in objs]}")
    # Enabled, files absent: nothing rendered, nothing failed.
    objs = [d for d in yaml.safe_load_all(helm_template(c, chart_copy(c, "without-files"), *enable).stdout) if d]
    if sorted(o["kind"] for o in objs) != ["PodMonitor"]:
        dt.fail(f"absent rule/dashboard files rendered {[o['kind'] for o in objs]}")
    c.ok("rules on and dashboard off by default; enabled without the files: nothing rendered, no failure")
    bad = chart_copy(c, "bad-files", "groups: {not: a list}\n", "{broken")
    p = helm_template(c, bad, *enable, ok=False)
    if p.returncode == 0 or "not a Prometheus rule file" not in p.stderr:
        dt.fail(f"a rule file without a groups list renders: {p.stderr}")
    c.ok("a malformed rule file fails the render with a clear message")


def packaged_files(c, chart):
    """The link to deploy/ must bring only the rules and the dashboard."""
    out = c.work / "package"
    c.tool("helm", "package", chart, "--destination", out)
    import tarfile
    with tarfile.open(next(out.glob("*.tgz"))) as t:
        names = [n for n in t.getnames() if "/files/" in n]
    stray = [n for n in names if not (n.startswith("jvmsight/files/deploy/prometheus/")
                                      or n.startswith("jvmsight/files/deploy/grafana/"))]
    if stray:
        dt.fail(f"the packaged chart carries files from deploy/ it must not: {stray} (add them to .helmignore)")
    c.ok(f"packaged chart: files/ holds only deploy/prometheus and deploy/grafana content ({len(names)} files)")


def example_app(c):
    """helm/examples/java-app includes the injection templates."""
    app = c.work / "examples/java-app"
    shutil.copytree(c.src / "helm/examples/java-app", app)
    chart_yaml = app / "Chart.yaml"
    chart_yaml.write_text(chart_yaml.read_text().replace("file://../../jvmsight", f"file://{c.src}/helm/jvmsight"))
    c.tool("helm", "dependency", "update", app)
    c.tool("helm", "lint", app)
    objs = c.validate(helm_template(c, app).stdout, "example-default")
    dep = by_kind(objs, "Deployment")
    pod = dep["spec"]["template"]
    expected = dict(DEFAULT_OPTIONS, log="warn")
    app_container = check_pod(pod, c.version, "/jvmsight", 9404, ["-XX:MaxRAMPercentage=75"], [], expected, "example")
    if app_container["env"][0] != {"name": "APP_MODE", "value": "production"}:
        dt.fail("example: the app's own env entries were lost")
    if pod["metadata"]["labels"].get("jvmsight/release") != "rel":
        dt.fail(f"example: pod labels {pod['metadata']['labels']}")
    pm = by_kind(objs, "PodMonitor")
    if pm["spec"]["selector"]["matchLabels"] != {"jvmsight/injected": "true", "jvmsight/release": "rel"}:
        dt.fail(f"example: the dependency's PodMonitor must select this release's pods: {pm['spec']['selector']}")
    p = helm_template(c, app, "--set", "jvmsight.agent.deadlockCheckMs=10", ok=False)
    if p.returncode == 0 or "agent.deadlockCheckMs 10 is below 50" not in p.stderr:
        dt.fail(f"example: a bad jvmsight value must fail the application's render: {p.stderr}")
    c.ok("example app chart: injection templates render a valid pod, PodMonitor scoped to the release, bad values fail")

    # details=local: /threads and /deadlocks for loopback clients only. The
    # chart alone renders no pod, so the example app renders the injection.
    objs = c.validate(helm_template(c, app, "--set", "jvmsight.agent.details=local").stdout, "example-details-local")
    env = dt.kubelet_env(by_kind(objs, "Deployment")["spec"]["template"]["spec"]["containers"][0], POD)
    _, opts = dt.agent_options(env["JAVA_TOOL_OPTIONS"])
    if opts.get("details") != "local":
        dt.fail(f"agent.details=local renders details={opts.get('details')}")
    c.ok("agent.details=local renders details=local")

    # Every agent value reaches the -agentpath, numbers written as the agent reads them.
    values = {"jvmsight": {
        "agent": {"port": 9555, "host": "127.0.0.1", "details": True, "log": "debug", "nativeStates": "off",
                  "deadlockCheckMs": 0, "contention": False, "contentionSampling": 10000000,
                  "lockClasses": 1000, "gcNotifications": "on", "gcSpanMinMs": 0.25,
                  "extraOptions": "otlp_endpoint=http://collector:4317"},
        "injection": {"mountPath": "/opt/jvmsight", "resourceAttributes": False, "scrapeAnnotations": False},
        "image": {"repository": "registry.example/jvmsight-agent"}}}
    values_file = c.work / "all-values.yaml"
    values_file.write_text(yaml.safe_dump(values))
    args = ["--values", values_file]
    c.tool("helm", "lint", app, *args)
    objs = c.validate(helm_template(c, app, *args).stdout, "example-all-values")
    pod = by_kind(objs, "Deployment")["spec"]["template"]
    env = dt.kubelet_env(pod["spec"]["containers"][0], POD)
    _, opts = dt.agent_options(env["JAVA_TOOL_OPTIONS"])
    expected = {"port": "9555", "host": "127.0.0.1", "details": "on", "log": "debug", "native_states": "off",
                "deadlock_check_ms": "0", "contention": "off", "contention_sampling": "10000000",
                "lock_classes": "1000", "gc_notifications": "on", "gc_span_min_ms": "0.25",
                "otlp_endpoint": "http://collector:4317"}
    if opts != expected:
        dt.fail(f"agent options from values: {opts}, expected {expected}")
    if not env["JAVA_TOOL_OPTIONS"].split()[-1].startswith("-agentpath:/opt/jvmsight/libjvmsight-loader.so="):
        dt.fail(f"mountPath not used: {env['JAVA_TOOL_OPTIONS']}")
    if "OTEL_RESOURCE_ATTRIBUTES" in env or pod["metadata"].get("annotations"):
        dt.fail("resourceAttributes/scrapeAnnotations=false still rendered them")
    if not pod["spec"]["initContainers"][0]["image"].startswith("registry.example/jvmsight-agent:"):
        dt.fail(f"image.repository not used: {pod['spec']['initContainers'][0]['image']}")
    c.ok("every agent value reaches -agentpath exactly (10000000, 0.25, booleans as on/off)")

    # details=local: /threads and /deadlocks for loopback clients only.
    objs = c.validate(helm_template(c, app, "--set", "jvmsight.agent.details=local").stdout, "example-details-local")
    pod = by_kind(objs, "Deployment")["spec"]["template"]
    _, opts = dt.agent_options(dt.kubelet_env(pod["spec"]["containers"][0], POD)["JAVA_TOOL_OPTIONS"])
    if opts.get("details") != "local":
        dt.fail(f"jvmsight.agent.details=local rendered {opts}")
    c.ok("agent.details=local renders details=local")


def main(mode, src, tools, version):
    dt.need_tools("node")
    c = Checks(src, tools, version)
    try:
        {"kustomize": kustomize, "helm": helm}[mode](c)
    finally:
        shutil.rmtree(c.work, ignore_errors=True)
    print(f"render_test {mode}: {c.passed} passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in ("kustomize", "helm"):
        sys.exit(__doc__)
    main(*sys.argv[1:])
