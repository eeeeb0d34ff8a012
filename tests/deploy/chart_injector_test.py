#!/usr/bin/python3
"""The chart's injector objects and its Prometheus operator guard, rendered
by the real helm, validated against the Kubernetes and cert-manager schemas
(validate.js), without a cluster.

A stand-in API server (plain HTTP on loopback: discovery, Helm's empty
release storage, one Secret) answers `helm install --dry-run=server`, so
.Capabilities and lookup see what a cluster would show: with and without
monitoring.coreos.com/v1, and with the Secret an install left behind, as an
upgrade finds it (the chart's lookup is the same on both). The chart's
Deployment args are handed to the real jvmsight-injector binary, which must
accept them and serve.

  chart_injector_test.py <source-dir> <tools-dir> <injector-binary>
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import ssl
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import yaml

import deploytest as dt

NS = "shop"
NAME = "rel-jvmsight-injector"


class FakeCluster:
    """Discovery (core v1, optionally monitoring.coreos.com/v1) and GET of
    the Secrets in `secrets`; everything else 404, as a Status."""

    def __init__(self):
        self.monitoring = False
        self.secrets = {}
        cluster = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?")[0]
                body = cluster.answer(path)
                code = 200 if body is not None else 404
                if body is None:
                    body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound",
                            "code": 404, "message": f"{path} not found"}
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def resources(self):
        """groupVersion -> [(plural, kind, namespaced)] this cluster serves."""
        served = {
            "v1": [("secrets", "Secret", True), ("services", "Service", True)],
            "apps/v1": [("deployments", "Deployment", True)],
            "policy/v1": [("poddisruptionbudgets", "PodDisruptionBudget", True)],
            "admissionregistration.k8s.io/v1": [("mutatingwebhookconfigurations", "MutatingWebhookConfiguration",
                                                 False)],
        }
        if self.monitoring:
            served["monitoring.coreos.com/v1"] = [(k.lower() + "s", k, True)
                                                  for k in ("PodMonitor", "ServiceMonitor", "PrometheusRule")]
        return served

    def answer(self, path):
        served = self.resources()
        if path == "/version":
            return {"major": "1", "minor": "32", "gitVersion": "v1.32.3", "platform": "linux/amd64"}
        if path == "/api":
            return {"kind": "APIVersions", "versions": ["v1"],
                    "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]}
        if path == "/apis":
            groups = []
            for gv in served:
                if "/" in gv:
                    v = {"groupVersion": gv, "version": gv.split("/")[1]}
                    groups.append({"name": gv.split("/")[0], "versions": [v], "preferredVersion": v})
            return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}
        for gv, kinds in served.items():
            if path == ("/api/v1" if gv == "v1" else f"/apis/{gv}"):
                return {"kind": "APIResourceList", "groupVersion": gv, "resources": [
                    {"name": plural, "singularName": kind.lower(), "namespaced": namespaced, "kind": kind,
                     "verbs": ["get", "list", "create", "update", "patch", "delete"]}
                    for plural, kind, namespaced in kinds]}
        prefix = f"/api/v1/namespaces/{NS}/secrets"
        if path == prefix:  # Helm's release storage: no release yet
            return {"kind": "SecretList", "apiVersion": "v1", "metadata": {}, "items": []}
        if path.startswith(prefix + "/"):
            return self.secrets.get(path[len(prefix) + 1:])
        return None


class Helm:
    def __init__(self, src, tools, work, cluster):
        self.chart = src / "helm/jvmsight"
        self.src, self.tools, self.work = src, tools, work
        kubeconfig = work / "kubeconfig"
        kubeconfig.write_text(yaml.safe_dump({
            "apiVersion": "v1", "kind": "Config", "current-context": "fake",
            "clusters": [{"name": "fake", "cluster": {"server": cluster.url}}],
            "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "fake", "namespace": NS}}],
            "users": [{"name": "fake", "user": {}}]}))
        self.env = dict(os.environ, KUBECONFIG=str(kubeconfig), HELM_CACHE_HOME=str(work / "helm-cache"),
                        HELM_CONFIG_HOME=str(work / "helm-config"), HELM_DATA_HOME=str(work / "helm-data"))

    def run(self, *args, ok=True):
        p = subprocess.run([str(self.tools / "bin/helm"), *map(str, args)], capture_output=True, text=True,
                           timeout=120, env=self.env)
        if ok and p.returncode != 0:
            dt.fail(f"helm {' '.join(map(str, args))} exited {p.returncode}:\n{p.stderr}")
        return p

    def template(self, *args, server=False):
        """The manifest, from helm template, or (server) from an install's
        server-side dry run: .Capabilities and lookup ask the cluster."""
        if not server:
            return self.run("template", "rel", self.chart, "--namespace", NS, *args).stdout
        out = self.run("install", "rel", self.chart, "--namespace", NS, "--dry-run=server",
                       "--disable-openapi-validation", "--output", "json", *args).stdout
        return json.loads(out).get("manifest", "")  # omitted when nothing renders

    def validate(self, text, label):
        return dt.validate_manifests(self.src, self.tools, self.work, text, label)


def by_kind(objs, kind):
    found = [o for o in objs if o["kind"] == kind]
    if len(found) != 1:
        dt.fail(f"expected one {kind}, found {len(found)} among {[o['kind'] for o in objs]}")
    return found[0]


def expect(cond, msg):
    if not cond:
        dt.fail(msg)


def check_objects(objs):
    dep, svc, pdb = by_kind(objs, "Deployment"), by_kind(objs, "Service"), by_kind(objs, "PodDisruptionBudget")
    mwc = by_kind(objs, "MutatingWebhookConfiguration")
    pod = dep["spec"]["template"]
    c = pod["spec"]["containers"][0]
    expect(dep["spec"]["replicas"] == 2 and pdb["spec"].get("minAvailable") == 1, "2 replicas and a PDB")
    expect(pdb["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items(), "PDB selector")
    expect(svc["spec"]["selector"].items() <= pod["metadata"]["labels"].items(), "Service selector")
    expect(pod["spec"]["securityContext"]["runAsNonRoot"] and c["securityContext"]["readOnlyRootFilesystem"]
           and c["securityContext"]["allowPrivilegeEscalation"] is False, f"injector pod security: {pod['spec']}")
    expect(pod["metadata"]["labels"].get("jvmsight.io/inject") == "false", "the injector must opt itself out")
    paths = set()
    for w in mwc["webhooks"]:
        expect(w["failurePolicy"] == "Ignore" and w["timeoutSeconds"] <= 10 and w["sideEffects"] == "None",
               f"{w['name']}: must never block a pod: {w}")
        expect(w["clientConfig"]["service"]["name"] == svc["metadata"]["name"]
               and w["clientConfig"]["service"]["namespace"] == NS, f"{w['name']}: service")
        excluded = next(e for e in w["namespaceSelector"]["matchExpressions"]
                        if e["key"] == "kubernetes.io/metadata.name")
        expect(excluded["operator"] == "NotIn" and {"kube-system", NS} <= set(excluded["values"]),
               f"{w['name']}: must exclude kube-system and its own namespace: {excluded}")
        expect(w["rules"] == [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                               "resources": ["pods"], "scope": "Namespaced"}], f"{w['name']}: rules")
        paths.add(w["clientConfig"]["service"]["path"])
    expect(paths == {"/mutate", "/mutate/namespace"}, f"webhook paths {paths}")
    return dep, mwc


def check_certificate(objs, work):
    """caBundle is the Secret's CA, and the CA signed a certificate for the
    Service's DNS name (openssl verify)."""
    secret = by_kind(objs, "Secret")
    mwc = by_kind(objs, "MutatingWebhookConfiguration")
    ca = secret["data"]["ca.crt"]
    expect(all(w["clientConfig"]["caBundle"] == ca for w in mwc["webhooks"]), "caBundle is not the Secret's CA")
    d = work / "certcheck"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir()
    for k in ("ca.crt", "tls.crt", "tls.key"):
        (d / k).write_bytes(base64.b64decode(secret["data"][k]))
    p = subprocess.run(["openssl", "verify", "-CAfile", d / "ca.crt", "-verify_hostname",
                        f"{NAME}.{NS}.svc", d / "tls.crt"], capture_output=True, text=True)
    expect(p.returncode == 0, f"the generated certificate does not verify: {p.stdout}{p.stderr}")
    return secret, d


def run_injector(binary, dep, certs):
    """The chart's args, with the files and port made local: the real
    binary accepts them and serves /healthz over HTTPS."""
    args = [a for a in dep["spec"]["template"]["spec"]["containers"][0]["args"]
            if not a.startswith(("--tls-", "--port="))]
    port = dt_free_port()
    proc = subprocess.Popen([binary, *args, f"--port={port}", "--host=127.0.0.1",
                             f"--tls-cert-file={certs / 'tls.crt'}", f"--tls-key-file={certs / 'tls.key'}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        ctx = ssl.create_default_context(cafile=str(certs / "ca.crt"))
        ctx.check_hostname = False  # the chart's certificate names the Service, the test connects to 127.0.0.1
        deadline = time.time() + 10
        while time.time() < deadline:
            if proc.poll() is not None:
                dt.fail(f"jvmsight-injector refused the chart's args {args}:\n{proc.stdout.read()}")
            try:
                with urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", context=ctx, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        dt.fail("jvmsight-injector with the chart's args never answered /healthz")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def dt_free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(src, tools, binary):
    dt.need_tools("node", "openssl")
    src, tools = Path(src), Path(tools)
    work = Path(tempfile.mkdtemp(prefix="jvmsight-chart-injector-"))
    cluster = FakeCluster()
    helm = Helm(src, tools, work, cluster)
    passed = 0
    try:
        on = ["--set", "injector.enabled=true"]
        helm.run("lint", helm.chart, *on, "--strict")
        helm.run("lint", helm.chart, *on, "--set", "injector.certManager.enabled=true", "--strict")
        # A cluster without the Prometheus operator: installable, nothing of its API rendered.
        objs = helm.validate(helm.template(server=True), "no-operator")
        expect(objs == [], f"without monitoring.coreos.com/v1 the chart renders {[o['kind'] for o in objs]}")
        # With it: the PodMonitor and the deadlock rules by default.
        cluster.monitoring = True
        objs = helm.validate(helm.template(server=True), "operator")
        expect(sorted(o["kind"] for o in objs) == ["PodMonitor", "PrometheusRule"],
               f"with the operator's API the chart renders {[o['kind'] for o in objs]}")
        expect(any(r.get("alert") == "JvmDeadlocked"
                   for g in by_kind(objs, "PrometheusRule")["spec"]["groups"] for r in g["rules"]),
               "the PrometheusRule has no JvmDeadlocked alert")
        objs = helm.validate(helm.template("--set", "prometheusRule.enabled=false", server=True), "rules-off")
        expect([o["kind"] for o in objs] == ["PodMonitor"], "prometheusRule.enabled=false still renders it")
        cluster.monitoring = False
        objs = helm.validate(helm.template("--set", "prometheusOperator.force=true"), "forced")
        expect(sorted(o["kind"] for o in objs) == ["PodMonitor", "PrometheusRule"], "force renders them")
        # Why the guard: the same objects make an install fail where the API is not served.
        p = helm.run("install", "rel", helm.chart, "--namespace", NS, "--dry-run=server",
                     "--disable-openapi-validation", "--set", "prometheusOperator.force=true", ok=False)
        expect(p.returncode != 0 and "no matches for kind" in p.stderr,
               f"a forced install without the operator should fail as Helm does: {p.stderr}")
        passed += 1
        print("ok: operator objects only where the API is served (or forced); the deadlock rules by default")

        # The injector: install (no Secret yet), then an upgrade that finds it.
        first = helm.validate(helm.template(*on, server=True), "injector-install")
        dep, _ = check_objects(first)
        secret, certs = check_certificate(first, work)
        again = [o for o in yaml.safe_load_all(helm.template(*on, server=True)) if o]
        expect(by_kind(again, "Secret")["data"]["ca.crt"] != secret["data"]["ca.crt"],
               "two installs made the same CA: not generated at install")
        # What the install left: the Secret with Helm's ownership marks.
        installed = json.loads(json.dumps(secret))
        installed["metadata"].setdefault("annotations", {}).update(
            {"meta.helm.sh/release-name": "rel", "meta.helm.sh/release-namespace": NS})
        cluster.secrets[f"{NAME}-tls"] = installed
        upgrade = helm.validate(helm.template(*on, server=True), "injector-upgrade")
        check_certificate(upgrade, work)
        expect(by_kind(upgrade, "Secret")["data"] == secret["data"], "the upgrade replaced the installed certificate")
        passed += 1
        print("ok: injector objects valid and safe; certificate generated per install, kept on upgrade")
        run_injector(binary, dep, certs)
        passed += 1
        print("ok: jvmsight-injector accepts the chart's args and serves with its certificate")

        cm = helm.validate(helm.template(*on, "--set", "injector.certManager.enabled=true",
                                         "--set", "injector.annotatedPods=true"), "injector-cert-manager")
        cert, mwc = by_kind(cm, "Certificate"), by_kind(cm, "MutatingWebhookConfiguration")
        expect(by_kind(cm, "Issuer")["spec"] == {"selfSigned": {}}, "self-signed Issuer by default")
        expect(cert["spec"]["secretName"] == f"{NAME}-tls" and f"{NAME}.{NS}.svc" in cert["spec"]["dnsNames"],
               f"Certificate {cert['spec']}")
        expect(mwc["metadata"]["annotations"]["cert-manager.io/inject-ca-from"] == f"{NS}/{NAME}", "cainjector")
        expect(not [o for o in cm if o["kind"] == "Secret"], "cert-manager mode must not render a Secret")
        pods = next(w for w in mwc["webhooks"] if w["name"].startswith("pods."))
        expect(pods["objectSelector"]["matchExpressions"][0]["operator"] == "NotIn",
               "annotatedPods sends every pod but opted-out ones")
        passed += 1
        print("ok: cert-manager Certificate, Issuer and cainjector annotation; annotatedPods selector")
    finally:
        cluster.server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"chart_injector_test: {passed} passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
