#!/usr/bin/python3
"""The injection contract end to end, without a cluster: what the kubelet
would do with a rendered pod, done with runc.

For the kustomize demo (deploy/kubernetes/demo) and the Helm example app
(helm/examples/java-app): the rendered init container runs from the real
image (its own command, its mounts, user and read-only root) and fills an
emptyDir directory; then the rendered Java container starts in a JDK-only
root filesystem with the rendered env (expanded as the kubelet expands it)
and mounts, and its /metrics answers; the rendered init container in an
image without the copy step says so. The only change to what was rendered:
the agent listens on 127.0.0.1 on a free port (port=0, portfile) instead of
0.0.0.0:9404, so tests never clash or reach out.

  inject_test.py <source-dir> <tools-dir> <oci-archive> <version>
"""
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

import deploytest as dt

POD = {"metadata.name": "demo-6b8f9-q4z2x", "metadata.namespace": "jvmsight-demo", "spec.nodeName": "node-1",
       "metadata.uid": "0c5d3f5e-8a7b-4b8e-9a39-5f0e6c7d1a2b"}


def render(src, tools, work):
    kubectl, helm = tools / "bin/kubectl", tools / "bin/helm"
    demo = subprocess.run([kubectl, "kustomize", src / "deploy/kubernetes/demo"], check=True,
                          capture_output=True, text=True).stdout
    app = work / "java-app"
    shutil.copytree(src / "helm/examples/java-app", app)
    (app / "Chart.yaml").write_text((app / "Chart.yaml").read_text()
                                    .replace("file://../../jvmsight", f"file://{src}/helm/jvmsight"))
    subprocess.run([helm, "dependency", "update", app], check=True, capture_output=True)
    example = subprocess.run([helm, "template", "shop", app], check=True, capture_output=True, text=True).stdout
    return ([d for d in yaml.safe_load_all(demo) if d], [d for d in yaml.safe_load_all(example) if d])


def volume_dirs(objs, pod_spec, work, tag):
    """Host directories standing in for the pod's volumes."""
    dirs = {}
    for v in pod_spec["volumes"]:
        d = work / f"{tag}-vol-{v['name']}"
        d.mkdir()
        if "emptyDir" in v:
            d.chmod(0o777)
        elif "configMap" in v:
            cm = next(o for o in objs if o["kind"] == "ConfigMap" and o["metadata"]["name"] == v["configMap"]["name"])
            for key, text in cm["data"].items():
                (d / key).write_text(text)
        else:
            dt.fail(f"{tag}: volume kind not emulated here: {v}")
        dirs[v["name"]] = d
    return dirs


def run_init(runc, image_bundle, image_tag, init, dirs, tag):
    """The init container, as the kubelet runs it from the agent image."""
    if init["image"].split("/")[-1] != image_tag:
        dt.fail(f"{tag}: init container image {init['image']} is not the built {image_tag}")
    bundle = image_bundle.parent / f"{tag}-init"
    shutil.copytree(image_bundle, bundle, symlinks=True)
    config = json.loads((bundle / "config.json").read_text())
    proc = config["process"]
    proc["terminal"] = False
    if "command" in init:
        proc["args"] = init["command"] + init.get("args", [])
    elif "args" in init:
        proc["args"] = proc["args"][:0] + init["args"]
    sc = init.get("securityContext", {})
    if "runAsUser" in sc:
        proc["user"] = {"uid": sc["runAsUser"], "gid": sc.get("runAsGroup", sc["runAsUser"])}
    config["root"]["readonly"] = bool(sc.get("readOnlyRootFilesystem"))
    for m in init.get("volumeMounts", []):
        config["mounts"].append(dt.bind(dirs[m["name"]], m["mountPath"], readonly=m.get("readOnly", False)))
    (bundle / "config.json").write_text(json.dumps(config))
    code, out = runc.run(bundle, timeout=60)
    if code != 0:
        dt.fail(f"{tag}: init container exited {code}: {out}")
    print(f"{tag}: init container copied {sorted(p.name for p in dirs['jvmsight-agent'].iterdir())}")


def check_older_image(runc, image_bundle, init, tag):
    """The rendered command in an image without the copy step (an older one,
    or a node's stale copy of the tag): exits 1 with the line
    docs/KUBERNETES.md quotes, never copying a bundle the Java container's
    JAVA_TOOL_OPTIONS might not find."""
    bundle = image_bundle.parent / f"{tag}-older"
    shutil.copytree(image_bundle, bundle, symlinks=True)
    (bundle / "rootfs/bin/jvmsight-copy").unlink()
    config = json.loads((bundle / "config.json").read_text())
    config["process"].update(terminal=False, args=init["command"] + init.get("args", []))
    (bundle / "config.json").write_text(json.dumps(config))
    code, out = runc.run(bundle, timeout=60)
    line = "jvmsight: the init container image is not a jvmsight-agent image of this release"
    if code != 1 or line not in out:
        dt.fail(f"{tag}: the rendered init container in an older image exited {code}: {out}")
    if init.get("terminationMessagePolicy") != "FallbackToLogsOnError":
        dt.fail(f"{tag}: the init container's line would not be its termination message: {init}")
    print(f"{tag}: in an image without the copy step, the init container exits 1: {out.strip()}")


def run_app(runc, work, jdk, container, dirs, tag, args, attributes=None):
    """The Java container: rendered env and mounts, in a JDK-only rootfs.
    attributes: what the JVM's OTEL_RESOURCE_ATTRIBUTES must end with
    (default: the chart's and the component's three)."""
    env = dt.kubelet_env(container, POD)
    rendered_jto = env["JAVA_TOOL_OPTIONS"]
    _, rendered = dt.agent_options(rendered_jto)
    if rendered.get("details") != "off":
        dt.fail(f"{tag}: rendered agent options {rendered} must keep details off")
    out = work / f"{tag}-out"
    out.mkdir()
    out.chmod(0o777)
    env["JAVA_TOOL_OPTIONS"] = dt.with_agent_options(rendered_jto, port="0", host="127.0.0.1",
                                                     portfile="/jvmsight-test/port")
    env["PATH"] = f"{jdk}/bin:/bin"
    bundle = work / f"{tag}-app"
    rootfs = bundle / "rootfs"
    rootfs.mkdir(parents=True)
    mounts, _ = dt.jvm_rootfs_mounts(jdk, rootfs)
    mounts.append(dt.bind("/bin/busybox", "/bin/sh"))  # the image's shell
    for m in container["volumeMounts"]:
        mounts.append(dt.bind(dirs[m["name"]], m["mountPath"], readonly=m.get("readOnly", False)))
    mounts.append(dt.bind(out, "/jvmsight-test", readonly=False))
    config = dt.runtime_config(args, [f"{k}={v}" for k, v in env.items()], uid=10001, host_network=True)
    config["mounts"] += mounts
    (bundle / "config.json").write_text(json.dumps(config))
    log = work / f"{tag}-app.log"
    cid = runc.start(bundle, log)
    port = dt.wait_for_port(out / "port", cid, runc, log, timeout=90)
    status, body = dt.http_get(port, "/metrics")
    if status != 200 or "jvm_threads_current" not in body:
        dt.fail(f"{tag}: /metrics answered {status}: {body[:300]}")
    status, _ = dt.http_get(port, "/threads")
    if status != 404:
        dt.fail(f"{tag}: /threads answered {status}; the rendered details=off did not reach the agent")
    state = json.loads(subprocess.run(runc._cmd("state", cid), capture_output=True, text=True).stdout)
    environ = dict(kv.split("=", 1) for kv in
                   Path(f"/proc/{state['pid']}/environ").read_bytes().decode().split("\0") if "=" in kv)
    want = attributes or (f"k8s.pod.name={POD['metadata.name']},k8s.namespace.name={POD['metadata.namespace']},"
                          f"k8s.node.name={POD['spec.nodeName']}")
    if not environ.get("OTEL_RESOURCE_ATTRIBUTES", "").endswith(want):
        dt.fail(f"{tag}: the JVM's OTEL_RESOURCE_ATTRIBUTES is {environ.get('OTEL_RESOURCE_ATTRIBUTES')!r}")
    # javac and java both pick the options up; only java may serve (at log
    # info the agent says so once), and nothing may complain.
    text = log.read_text()
    serving = 1 if rendered.get("log", "info") in ("info", "debug") else 0
    if (text.count("Picked up JAVA_TOOL_OPTIONS") != 2 or text.count("jvmsight: serving") != serving
            or "jvmsight: error" in text or "jvmsight: warning" in text):
        dt.fail(f"{tag}: expected javac inert and {serving} 'serving' line from java:\n{text}")
    print(f"{tag}: {jdk.name} JVM loaded the agent from the volume; /metrics on 127.0.0.1:{port}; "
          f"JAVA_TOOL_OPTIONS={environ['JAVA_TOOL_OPTIONS']!r}")


def main(src, tools, archive, version):
    dt.need_tools("umoci", "runc", "ldd")
    src, tools = Path(src), Path(tools)
    jdks = dt.jdks()
    with tempfile.TemporaryDirectory(prefix="jvmsight-inject-") as tmp:
        work = Path(tmp)
        runc = dt.Runc(work)
        try:
            image_bundle, image_tag, _ = dt.unpack_image(archive, work)
            demo, example = render(src, tools, work)
            cases = []
            # The demo's own command compiles and runs Demo.java: javac inherits
            # JAVA_TOOL_OPTIONS as in the cluster. One case per JDK.
            for jdk in jdks:
                dep = next(o for o in demo if o["kind"] == "Deployment")
                c = dep["spec"]["template"]["spec"]["containers"][0]
                cases.append((f"demo-{jdk.name}", demo, dep, jdk, c["command"] + c.get("args", [])))
            # The example's app.jar is a placeholder: run Demo.java the same way.
            dep = next(o for o in example if o["kind"] == "Deployment")
            src_dir = work / "example-src"
            src_dir.mkdir()
            shutil.copy(src / "deploy/kubernetes/demo/Demo.java", src_dir)
            dep["spec"]["template"]["spec"]["volumes"].append({"name": "src", "configMap": {"name": "src"}})
            dep["spec"]["template"]["spec"]["containers"][0]["volumeMounts"].append(
                {"name": "src", "mountPath": "/demo", "readOnly": True})
            example.append({"kind": "ConfigMap", "metadata": {"name": "src"},
                            "data": {"Demo.java": (src_dir / "Demo.java").read_text()}})
            cases.append(("helm-example", example, dep, jdks[-1],
                          ["sh", "-c", "javac -d /tmp/classes /demo/Demo.java && exec java -cp /tmp/classes Demo"]))
            for tag, objs, dep, jdk, args in cases:
                spec = dep["spec"]["template"]["spec"]
                dirs = volume_dirs(objs, spec, work, tag)
                init = next(i for i in spec["initContainers"] if i["name"] == "jvmsight-agent")
                if tag in ("demo-" + jdks[0].name, "helm-example"):
                    check_older_image(runc, image_bundle, init, tag)
                run_init(runc, image_bundle, image_tag, init, dirs, tag)
                run_app(runc, work, jdk, spec["containers"][0], dirs, tag, args)
        finally:
            runc.cleanup()
    print(f"inject_test: {len(cases)} passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
