"""The agent image's copy step as a pod runs it, for the amd64 and arm64
images alike (image_test.py; tests/arm64/image_copy_test.py under qemu-user):
the pod comes from the real injector (its image, over HTTPS), the init
container runs the command the webhook wrote, from the image under test,
with runc as the kubelet would, and the JVM gets exactly the env the webhook
wrote (expanded as the kubelet expands it). Each architecture's test says how
it starts a JVM.

Then the copy step skipped or broken, each way docs/KUBERNETES.md lists
("When the copy cannot complete"): what the init container and the JVM do
must be what the page says, and every jvmsight line quoted here must be
quoted there.
"""
import json
import shutil
import subprocess
from pathlib import Path

import jsonpatch

import deploytest as dt
import inject_test
import injector_test

# The only agent options the test sets (as a pod annotation, the way users
# set options): a free loopback port and a file naming it.
OPTIONS = "port=0,host=127.0.0.1,portfile=/jvmsight-test/port"
STARTED = "class Started { public static void main(String[] a) { System.out.println(\"app started\"); } }\n"


def bundle_names(src):
    """deploy/image/bundle.list's names, in order."""
    lines = (line.split() for line in Path(src, "deploy/image/bundle.list").read_text().splitlines())
    return [words[0] for words in lines if words and not words[0].startswith("#")]


def check_rootfs(rootfs, src):
    """The image holds busybox, the copy step and exactly the listed bundle."""
    files = sorted(str(p.relative_to(rootfs)) for p in rootfs.rglob("*") if not p.is_dir())
    want = sorted(["bin/busybox", "bin/jvmsight-copy", "opt/jvmsight/SHA256SUMS"] +
                  [f"opt/jvmsight/{n}" for n in bundle_names(src)])
    if files != want:
        dt.fail(f"image files {files}\n  expected {want} (deploy/image/bundle.list)")
    print(f"image files: {files}")


def webhook_pod(runc, injector_archive, work):
    """A pod as the injector patches it (its image, over HTTPS): returns
    (init container, Java container, emptyDir volume)."""
    certs = work / "certs"
    certs.mkdir()
    injector_test.make_ca(certs)
    inj = injector_test.Injector(runc, injector_archive, work, certs)
    pod = injector_test.pod({"jvmsight.io/inject": "true", "jvmsight.io/options": OPTIONS},
                            [injector_test.java("app")])
    patch, warnings = inj.review(pod)
    if patch is None or warnings:
        dt.fail(f"the injector gave no patch for the test pod: {warnings}")
    spec = jsonpatch.apply_patch(pod, patch)["spec"]
    init = next(i for i in spec["initContainers"] if i["name"] == "jvmsight-agent")
    volume = next(v for v in spec["volumes"] if v["name"] == "jvmsight-agent")
    print(f"webhook: init command {init['command']}")
    return init, spec["containers"][0], volume


def java_env(container):
    """The Java container's env as the kubelet gives it, and its JAVA_TOOL_OPTIONS."""
    env = dt.kubelet_env(container, inject_test.POD)
    if "/jvmsight/libjvmsight-loader.so=" not in env.get("JAVA_TOOL_OPTIONS", ""):
        dt.fail(f"the webhook's JAVA_TOOL_OPTIONS does not load the loader: {env.get('JAVA_TOOL_OPTIONS')!r}")
    return env


def run_init(runc, rootfs, init, volume, work, tag, mount_options=("rw",), mounted=True, root_writable=False):
    """The init container: the webhook's command, user and read-only root, the
    volume at its mount path. Returns (exit code, output)."""
    bundle = work / f"init-{tag}"
    bundle.mkdir()
    sc = init.get("securityContext", {})
    config = dt.runtime_config(init["command"] + init.get("args", []), ["PATH=/bin"],
                               uid=sc.get("runAsUser", 0), readonly_root=not root_writable)
    config["root"]["path"] = str(rootfs)
    if mounted:
        for m in init["volumeMounts"]:
            config["mounts"].append({"destination": m["mountPath"], "type": "bind", "source": str(volume),
                                     "options": ["rbind", *mount_options]})
    (bundle / "config.json").write_text(json.dumps(config))
    return runc.run(bundle, timeout=120)


class Volume:
    """A directory standing in for the emptyDir; with a size, a tmpfs of that
    size (an emptyDir whose disk is full). Unmounted by close()."""

    def __init__(self, path, size=None):
        self.path = path
        path.mkdir()
        self.mounted = size is not None
        if self.mounted:
            subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(path)], check=True)
        path.chmod(0o777)

    def close(self):
        if self.mounted:
            subprocess.run(["umount", str(self.path)], check=True)
            self.mounted = False


def expect_line(text, fragment, doc, what):
    """fragment in the output, and quoted in docs/KUBERNETES.md."""
    if fragment not in text:
        dt.fail(f"{what}: expected {fragment!r} in:\n{text}")
    if fragment not in doc:
        dt.fail(f"{what}: docs/KUBERNETES.md does not quote {fragment!r}")


def image_without(rootfs, work, tag, edit):
    """A copy of the image's root filesystem, changed by edit(copy)."""
    copy = work / f"rootfs-{tag}"
    shutil.copytree(rootfs, copy, symlinks=True)
    edit(copy)
    return copy


def corrupt(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


# Each way the copy cannot complete: (tag, what the init container gets,
# its exit code, its line). Exit 0 means Kubernetes starts the Java
# container: the JVM must start without the agent.
def init_cases(loader_size):
    return [
        ("disk-full-after-loader", {"size": loader_size + 32 * 1024}, 0, "jvmsight: the agent is not in /jvmsight"),
        ("corrupt-dependency", {"edit": lambda r: corrupt(r / "opt/jvmsight/libz.so.1")}, 0,
         "does not match the image's SHA256SUMS"),
        ("disk-full", {"size": 4096}, 1, "jvmsight: cannot place the loader in /jvmsight"),
        ("read-only", {"mount_options": ("ro",)}, 1, "jvmsight: /jvmsight is mounted read-only"),
        ("noexec", {"mount_options": ("rw", "noexec")}, 1, "jvmsight: /jvmsight is mounted noexec"),
        ("not-mounted", {"mounted": False, "root_writable": True}, 1, "jvmsight: nothing is mounted at /jvmsight"),
        ("older-image", {"edit": lambda r: (r / "bin/jvmsight-copy").unlink()}, 1,
         "jvmsight: the init container image is not a jvmsight-agent image of this release"),
    ]


def failures(runc, rootfs, init, work, run_java, doc, jvm_cases=None):
    """Every case above; then the JVM of each case that lets it start, and
    the one where nothing was copied. run_java(volume dir) -> (exit code,
    output) of a JVM started with the webhook's env; jvm_cases limits which
    cases start one (emulated JVMs are slow)."""
    loader_size = (rootfs / "opt/jvmsight/libjvmsight-loader.so").stat().st_size
    for tag, setup, code, line in init_cases(loader_size):
        volume = Volume(work / f"volume-{tag}", setup.get("size"))
        try:
            fs = image_without(rootfs, work, tag, setup["edit"]) if "edit" in setup else rootfs
            got, out = run_init(runc, fs, init, volume.path, work, tag, setup.get("mount_options", ("rw",)),
                                setup.get("mounted", True), setup.get("root_writable", False))
            if got != code:
                dt.fail(f"{tag}: the init container exited {got}, expected {code}:\n{out}")
            expect_line(out, line, doc, tag)
            print(f"{tag}: init container exits {got}: {out.strip().splitlines()[-1]}")
            if code == 0 and (jvm_cases is None or tag in jvm_cases):
                placed = sorted(p.name for p in volume.path.iterdir())
                if "libjvmsight.so" in placed or "libjvmsight-loader.so" not in placed:
                    dt.fail(f"{tag}: the volume holds {placed}: the loader without the agent expected")
                jvm_starts_without_agent(run_java, volume.path, doc, tag)
        finally:
            volume.close()
    if jvm_cases is None or "skipped" in jvm_cases:
        volume = Volume(work / "volume-skipped")
        got, out = run_java(volume.path)
        if got == 0:
            dt.fail(f"skipped: a JVM started with an empty /jvmsight:\n{out}")
        expect_line(out, "Could not find agent library /jvmsight/libjvmsight-loader.so", doc, "skipped")
        print(f"skipped: the JVM stops (exit {got}) naming /jvmsight/libjvmsight-loader.so")


def jvm_starts_without_agent(run_java, volume, doc, tag):
    got, out = run_java(volume)
    if got != 0 or "app started" not in out:
        dt.fail(f"{tag}: the JVM did not run the application (exit {got}):\n{out}")
    expect_line(out, "jvmsight: error: cannot load /jvmsight/libjvmsight.so", doc, tag)
    expect_line(out, "the JVM continues without jvmsight", doc, tag)
    print(f"{tag}: the JVM runs the application without the agent, the loader saying why")
