#!/usr/bin/python3
"""The amd64 agent image, as a cluster would use it, without a cluster.

Unpacks the archive's linux/amd64 image (umoci) and checks its contents
(busybox, the copy step, exactly deploy/image/bundle.list's files), version
label and user. The pod comes from the real injector (copy_step.py): its init
container, run with runc from this image, fills a volume directory; then a
JVM of every JDK, in a container that has only the JDK and its own
libraries, starts with exactly the env the webhook wrote (its
JAVA_TOOL_OPTIONS loading the agent from the volume) and serves /metrics.
Then every way the copy cannot complete (copy_step.py), on one JDK.

  image_test.py <source-dir> <agent-archive> <injector-archive> <version>
"""
import json
import sys
import tempfile
from pathlib import Path

import copy_step
import deploytest as dt


def check_image_config(config, tag, version):
    labels = config.get("config", {}).get("Labels", {})
    if labels.get("org.opencontainers.image.version") != version:
        dt.fail(f"version label {labels.get('org.opencontainers.image.version')!r}, expected {version!r}")
    if tag != f"jvmsight-agent:{version}":
        dt.fail(f"archive tag {tag!r}, expected jvmsight-agent:{version}")
    if config["config"].get("User") != "65532:65532":
        dt.fail(f"image user {config['config'].get('User')!r}: the copy must not need root")


def check_copy(rootfs, volume, size_limit):
    """The volume holds the image's bundle, byte for byte (no staging file
    left), and it fits the emptyDir's size limit."""
    image_root = rootfs / "opt/jvmsight"
    image_files = {p.name: p.read_bytes() for p in image_root.iterdir() if p.name != "SHA256SUMS"}
    copied = {p.name: p.read_bytes() for p in volume.iterdir()}
    if copied != image_files:
        dt.fail(f"volume holds {sorted(copied)}, image bundle {sorted(image_files)} (or contents differ)")
    size = sum(len(b) for b in copied.values())
    limit = int(size_limit.removesuffix("Mi")) << 20
    if size > limit:
        dt.fail(f"the bundle ({size} bytes) does not fit the emptyDir sizeLimit {size_limit}")
    print(f"copied into the volume: {sorted(copied)} ({size >> 10} KiB, the emptyDir takes {size_limit})")


def check_ldd(volume):
    """Every library the agent needs resolves to the volume or to glibc / the
    C++ runtime; none from the machine's own libraries."""
    for lib in sorted(volume.iterdir()):
        for soname, path in dt.ldd(lib).items():
            if path is None:
                dt.fail(f"{lib.name}: {soname} not found")
            if Path(path).parent == volume:
                continue
            if soname not in dt.IMAGE_LIBS:
                dt.fail(f"{lib.name}: {soname} resolves to {path}, outside the bundle")
    libs = dt.ldd(volume / "libjvmsight.so")
    for soname in libs:
        if soname not in dt.IMAGE_LIBS:
            dt.fail(f"libjvmsight.so needs {soname}: only glibc and the C++ runtime were expected")
    print("ldd: " + ", ".join(f"{k} => {v}" for k, v in sorted(libs.items())))


class JvmContainer:
    """A JVM 'image' of one JDK alone, with the webhook's env; the agent can
    only come from the volume."""
    count = 0

    def __init__(self, runc, work, jdk, env, classes):
        self.runc, self.work, self.jdk, self.classes = runc, work, jdk, classes
        self.env = [f"{k}={v}" for k, v in env.items()] + [f"PATH={jdk}/bin:/usr/bin:/bin"]

    def bundle(self, volume, args):
        JvmContainer.count += 1
        bundle = self.work / f"jvm-{self.jdk.name}-{JvmContainer.count}"
        rootfs = bundle / "rootfs"
        rootfs.mkdir(parents=True)
        out = bundle / "out"
        out.mkdir(mode=0o777)
        out.chmod(0o777)
        mounts, _ = dt.jvm_rootfs_mounts(self.jdk, rootfs)
        config = dt.runtime_config([f"{self.jdk}/bin/java", "-cp", "/classes", *args], self.env, uid=10001,
                                   host_network=True)
        config["mounts"] += mounts + [dt.bind(volume, "/jvmsight"), dt.bind(self.classes, "/classes"),
                                      dt.bind(out, "/jvmsight-test", readonly=False)]
        (bundle / "config.json").write_text(json.dumps(config))
        return bundle, out

    def serve(self, volume):
        """The demo workload: the agent loads from the volume and serves."""
        bundle, out = self.bundle(volume, ["Demo"])
        log = bundle / "jvm.log"
        cid = self.runc.start(bundle, log)
        port = dt.wait_for_port(out / "port", cid, self.runc, log)
        status, body = dt.http_get(port, "/metrics")
        if status != 200 or "jvm_threads_current" not in body:
            dt.fail(f"{self.jdk.name}: /metrics answered {status}: {body[:300]}")
        pid = json.loads(dt.subprocess.run(self.runc._cmd("state", cid), capture_output=True,
                                           text=True).stdout)["pid"]
        maps = Path(f"/proc/{pid}/maps").read_text()
        for soname in ("libjvmsight-loader.so", "libjvmsight.so"):
            if f"/jvmsight/{soname}" not in maps:
                dt.fail(f"{self.jdk.name}: the JVM did not map /jvmsight/{soname}")
        self.runc.kill(cid)
        print(f"{self.jdk.name}: agent loaded from the volume, /metrics on 127.0.0.1:{port} ({len(body)} bytes)")

    def run(self, volume):
        """A program that prints and exits: (exit code, output)."""
        bundle, _ = self.bundle(volume, ["Started"])
        return self.runc.run(bundle, timeout=120)


def main(src, archive, injector_archive, version):
    dt.need_tools("umoci", "runc", "ldd", "openssl")
    src = Path(src)
    doc = (src / "docs/KUBERNETES.md").read_text()
    with tempfile.TemporaryDirectory(prefix="jvmsight-image-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)
        runc = dt.Runc(work)
        jdks = dt.jdks()
        classes = work / "classes"
        classes.mkdir()
        (work / "Started.java").write_text(copy_step.STARTED)
        dt.subprocess.run([str(jdks[0] / "bin/javac"), "--release", "8", "-Xlint:-options", "-d", str(classes),
                           str(src / "deploy/kubernetes/demo/Demo.java"), str(work / "Started.java")], check=True)
        try:
            bundle, tag, config = dt.unpack_image(archive, work)
            check_image_config(config, tag, version)
            rootfs = bundle / "rootfs"
            copy_step.check_rootfs(rootfs, src)
            init, container, volume_spec = copy_step.webhook_pod(runc, injector_archive, work)
            env = copy_step.java_env(container)
            volume = work / "volume"
            volume.mkdir()
            volume.chmod(0o777)  # an emptyDir
            code, out = copy_step.run_init(runc, rootfs, init, volume, work, "copy")
            if code != 0:
                dt.fail(f"the copy step exited {code}: {out}")
            print(f"copy step: {out.strip()}")
            check_copy(rootfs, volume, volume_spec["emptyDir"]["sizeLimit"])
            check_ldd(volume)
            for jdk in jdks:
                JvmContainer(runc, work, jdk, env, classes).serve(volume)
            # The failures are the copy step's and the loader's, not the JDK's.
            copy_step.failures(runc, rootfs, init, work, JvmContainer(runc, work, jdks[0], env, classes).run, doc)
        finally:
            runc.cleanup()
    print("image_test: passed")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
