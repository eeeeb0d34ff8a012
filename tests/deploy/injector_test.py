#!/usr/bin/python3
"""jvmsight-injector end to end, doing what the API server would, without a
cluster.

The injector runs from its image (umoci, runc: the image's user, a
read-only root, host network on 127.0.0.1) with a throwaway CA made by
openssl. AdmissionReviews go to it over real HTTPS (Python's ssl trusting
only that CA). Each returned patch is applied with python3-jsonpatch (an
RFC 6902 implementation nobody here wrote), the patched pods are validated
against the Kubernetes schemas (npm kubernetes-models, tests/deploy/node),
and the injected pod's contract is run as inject_test.py runs the chart's:
the init container from the agent image fills a volume directory, a JVM
starts with the patched env and mounts, and its /metrics answers.

  injector_test.py <source-dir> <tools-dir> <agent-archive> <injector-archive> <version>
"""
import base64
import json
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import jsonpatch

import deploytest as dt
import inject_test

AGENT = "-agentpath:/jvmsight/libjvmsight-loader.so=port=9404,details=off"


def make_ca(d):
    """A CA and a server certificate for 127.0.0.1, readable by the image's user."""
    def ssl_cmd(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    ssl_cmd("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
            "-subj", "/CN=injector-test-ca", "-keyout", d / "ca.key", "-out", d / "ca.crt")
    ssl_cmd("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=injector",
            "-keyout", d / "tls.key", "-out", d / "tls.csr")
    (d / "ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ssl_cmd("x509", "-req", "-in", d / "tls.csr", "-CA", d / "ca.crt", "-CAkey", d / "ca.key",
            "-CAcreateserial", "-days", "1", "-extfile", d / "ext", "-out", d / "tls.crt")
    d.chmod(0o755)
    for f in ("tls.crt", "tls.key"):
        (d / f).chmod(0o644)  # a throwaway key, read by uid 65532


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Injector:
    def __init__(self, runc, archive, work, certs):
        (work / "injector").mkdir()
        bundle, tag, config = dt.unpack_image(archive, work / "injector")
        if config["config"].get("User") != "65532:65532":
            dt.fail(f"injector image user {config['config'].get('User')!r}, expected 65532:65532")
        self.port = free_port()
        rc = json.loads((bundle / "config.json").read_text())
        rc["process"]["terminal"] = False
        rc["process"]["args"] = config["config"]["Entrypoint"] + [
            f"--port={self.port}", "--host=127.0.0.1", "--tls-cert-file=/certs/tls.crt",
            "--tls-key-file=/certs/tls.key", "--image=jvmsight-agent:" + tag.split(":")[-1]]
        rc["root"]["readonly"] = True
        rc["linux"]["namespaces"] = [n for n in rc["linux"]["namespaces"] if n["type"] != "network"]
        rc["mounts"].append(dt.bind(certs, "/certs"))
        (bundle / "config.json").write_text(json.dumps(rc))
        self.log = work / "injector.log"
        self.cid = runc.start(bundle, self.log)
        self.ctx = ssl.create_default_context(cafile=str(certs / "ca.crt"))
        deadline = time.time() + 30
        while self.get("/healthz")[0] != 200:
            if time.time() > deadline or not runc.running(self.cid):
                dt.fail(f"the injector never answered /healthz:\n{self.log.read_text()}")
            time.sleep(0.2)

    def request(self, path, body=None):
        req = urllib.request.Request(f"https://127.0.0.1:{self.port}{path}", data=body,
                                     headers={"Content-Type": "application/json"} if body else {})
        try:
            with urllib.request.urlopen(req, context=self.ctx, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except (urllib.error.URLError, ConnectionError):
            return 0, ""

    def get(self, path):
        return self.request(path)

    def review(self, pod, namespace_opted_in=False, uid="uid-1"):
        body = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                "request": {"uid": uid, "kind": {"group": "", "version": "v1", "kind": "Pod"},
                            "resource": {"group": "", "version": "v1", "resource": "pods"},
                            "operation": "CREATE", "namespace": "shop", "object": pod}}
        path = "/mutate/namespace" if namespace_opted_in else "/mutate"
        status, text = self.request(path, json.dumps(body).encode())
        if status != 200:
            dt.fail(f"review {uid}: HTTP {status}: {text}")
        resp = json.loads(text)
        if resp.get("apiVersion") != "admission.k8s.io/v1" or resp.get("kind") != "AdmissionReview":
            dt.fail(f"review {uid}: not an AdmissionReview v1: {text[:200]}")
        r = resp["response"]
        if r.get("uid") != uid or r.get("allowed") is not True:
            dt.fail(f"review {uid}: uid/allowed wrong: {r}")
        if "patch" not in r:
            return None, r.get("warnings", [])
        if r.get("patchType") != "JSONPatch":
            dt.fail(f"review {uid}: patchType {r.get('patchType')}")
        return json.loads(base64.b64decode(r["patch"], validate=True)), r.get("warnings", [])


def pod(annotations, containers, **extra_meta):
    meta = {"generateName": "shop-6b8f9-", "namespace": "shop", "annotations": annotations,
            "labels": {"app": "shop", "pod-template-hash": "6b8f9"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "shop-6b8f9",
                                 "uid": "5b1c1b7e-0000-4000-8000-000000000001", "controller": True,
                                 "blockOwnerDeletion": True}]}
    meta.update(extra_meta)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"containers": containers, "volumes": [{"name": "src", "configMap": {"name": "src"}}]}}


def java(name, env=None):
    c = {"name": name, "image": "eclipse-temurin:21-jre",
         "command": ["sh", "-c", "javac -d /tmp/classes /demo/Demo.java && exec java -cp /tmp/classes Demo"],
         "volumeMounts": [{"name": "src", "mountPath": "/demo", "readOnly": True}]}
    if env is not None:
        c["env"] = env
    return c


def env_of(container):
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env", [])}


def expect(cond, msg):
    if not cond:
        dt.fail(msg)


def cases(inj):
    """Every case of the issue; returns the patched pods and the counts the
    injector's /metrics must show."""
    patched = {}
    # A multi-container pod with one container named, and its own JAVA_TOOL_OPTIONS.
    p = pod({"jvmsight.io/inject": "true", "jvmsight.io/container-names": "app"},
            [{"name": "proxy", "image": "envoyproxy/envoy:v1.30"},
             java("app", [{"name": "JAVA_TOOL_OPTIONS", "value": "-Xss1m"}])])
    patch, warnings = inj.review(p)
    expect(patch and not warnings, f"named container: patch {patch}, warnings {warnings}")
    out = jsonpatch.apply_patch(p, patch)
    expect("env" not in out["spec"]["containers"][0] and "volumeMounts" not in out["spec"]["containers"][0],
           f"the unnamed container was changed: {out['spec']['containers'][0]}")
    expect(env_of(out["spec"]["containers"][1])["JAVA_TOOL_OPTIONS"] == "-Xss1m " + AGENT,
           f"JAVA_TOOL_OPTIONS {env_of(out['spec']['containers'][1])['JAVA_TOOL_OPTIONS']!r}")
    patched["multi"] = out
    # A second pass over the injected pod: no patch.
    patch, _ = inj.review(out, uid="uid-2")
    expect(patch is None, f"second pass patched again: {patch}")
    # valueFrom: admitted without the agent, with a warning.
    p = pod({"jvmsight.io/inject": "true"}, [java("app", [{"name": "JAVA_TOOL_OPTIONS", "valueFrom": {
        "configMapKeyRef": {"name": "jvm", "key": "options"}}}])])
    patch, warnings = inj.review(p, uid="uid-3")
    expect(patch is None and any("valueFrom" in w for w in warnings), f"valueFrom: {patch} {warnings}")
    # No annotation: untouched, no warning.
    patch, warnings = inj.review(pod({}, [java("app")]), uid="uid-4")
    expect(patch is None and not warnings, f"no annotation: {patch} {warnings}")
    # Namespace opt-in: a pod without annotation is injected, one with "false" is not.
    p = pod({}, [java("app")])
    patch, _ = inj.review(p, namespace_opted_in=True, uid="uid-5")
    expect(patch is not None, "namespace opt-in: no patch")
    patched["namespace"] = jsonpatch.apply_patch(p, patch)
    patch, _ = inj.review(pod({"jvmsight.io/inject": "false"}, [java("app")]), namespace_opted_in=True, uid="uid-6")
    expect(patch is None, f"pod opt-out in an opted-in namespace: {patch}")
    # Bad options: admitted unpatched, with a warning naming the annotation.
    patch, warnings = inj.review(pod({"jvmsight.io/inject": "true", "jvmsight.io/options": "details=maybe"},
                                     [java("app")]), uid="uid-7")
    expect(patch is None and any("jvmsight.io/options" in w for w in warnings), f"bad options: {patch} {warnings}")
    # A container mounting a volume at /jvmsight already: a second mount there
    # would make the API server refuse the pod, so it is left out, with a warning.
    c = java("app")
    c["volumeMounts"].append({"name": "src", "mountPath": "/jvmsight/"})
    patch, warnings = inj.review(pod({"jvmsight.io/inject": "true"}, [c]), uid="uid-9")
    expect(patch is None and any("mounts a volume at /jvmsight already" in w for w in warnings),
           f"mount path taken: {patch} {warnings}")
    # Garbage: 400, and the server serves on.
    for garbage in (b"{not json", b"[]", b'{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}'):
        status, _ = inj.request("/mutate", garbage)
        expect(status == 400, f"garbage {garbage!r}: HTTP {status}")
    expect(inj.get("/readyz")[0] == 200, "not ready after garbage")
    patch, _ = inj.review(pod({"jvmsight.io/inject": "true"}, [java("app")]), uid="uid-8")
    expect(patch is not None, "no patch after garbage")
    return patched, {"reviews_total": 12, "injections_total": 3,
                     'skips_total{reason="already_injected"}': 1, 'skips_total{reason="not_opted_in"}': 1,
                     'skips_total{reason="opted_out"}': 1, 'skips_total{reason="invalid_options"}': 1,
                     'skips_total{reason="no_container"}': 2, 'errors_total{kind="malformed"}': 3,
                     'errors_total{kind="internal"}': 0}


def check_metrics(inj, want):
    status, text = inj.get("/metrics")
    got = {}
    for line in text.splitlines():
        if line.startswith("jvmsight_injector_"):
            name, value = line.rsplit(" ", 1)
            got[name[len("jvmsight_injector_"):]] = float(value)
    for name, value in want.items():
        expect(got.get(name) == value, f"/metrics {name} = {got.get(name)}, expected {value}\n{text}")
    print(f"injector /metrics: {got}")


def validate(src, tools, work, pods):
    docs = work / "patched-pods.yaml"
    docs.write_text("\n---\n".join(json.dumps(p) for p in pods))
    env = dict(os.environ, NODE_PATH=str(tools / "node/node_modules"))
    p = subprocess.run(["node", src / "tests/deploy/node/validate.js", docs], capture_output=True, text=True,
                       env=env, timeout=120)
    print(f"patched pods: {p.stdout.strip()}")
    if p.returncode != 0:
        dt.fail(f"patched pods fail the Kubernetes schemas:\n{p.stdout}{p.stderr}")


def run_pod(src, runc, work, agent_archive, patched, jdk):
    """The injected pod's contract, as inject_test runs the chart's."""
    (work / "agent").mkdir()
    image_bundle, image_tag, _ = dt.unpack_image(agent_archive, work / "agent")
    spec = patched["spec"]
    objs = [{"kind": "ConfigMap", "metadata": {"name": "src"},
             "data": {"Demo.java": (src / "deploy/kubernetes/demo/Demo.java").read_text()}}]
    dirs = inject_test.volume_dirs(objs, spec, work, "injected")
    init = next(i for i in spec["initContainers"] if i["name"] == "jvmsight-agent")
    inject_test.run_init(runc, image_bundle, image_tag, init, dirs, "injected")
    container = next(c for c in spec["containers"] if c["name"] == "app")
    pod_fields = inject_test.POD
    attributes = (f"k8s.pod.name={pod_fields['metadata.name']},k8s.pod.uid={pod_fields['metadata.uid']},"
                  f"k8s.namespace.name={pod_fields['metadata.namespace']},k8s.node.name={pod_fields['spec.nodeName']},"
                  "k8s.container.name=app,k8s.replicaset.name=shop-6b8f9,k8s.deployment.name=shop")
    inject_test.run_app(runc, work, jdk, container, dirs, "injected", container["command"], attributes=attributes)


def main(src, tools, agent_archive, injector_archive, version):
    dt.need_tools("umoci", "runc", "openssl", "node")
    src, tools = Path(src), Path(tools)
    with tempfile.TemporaryDirectory(prefix="jvmsight-injector-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)
        certs = work / "certs"
        certs.mkdir()
        make_ca(certs)
        runc = dt.Runc(work)
        try:
            inj = Injector(runc, injector_archive, work, certs)
            patched, want = cases(inj)
            check_metrics(inj, want)
            validate(src, tools, work, list(patched.values()))
            # One JDK (the newest): inject_test covers the agent on every JDK.
            run_pod(src, runc, work, agent_archive, patched["multi"], dt.jdks()[-1])
            log = inj.log.read_text()
            expect("jvmsight: error" not in log, f"the injector logged errors:\n{log}")
        finally:
            runc.cleanup()
    print("injector_test: passed")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
