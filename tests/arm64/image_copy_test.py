#!/usr/bin/python3
"""The arm64 agent image as an arm64 node would use it (docs/ARM64.md): the
linux/arm64 entry of the image index is unpacked (umoci) and its files
checked (busybox, the copy step, exactly deploy/image/bundle.list's files);
the pod comes from the real injector (tests/deploy/copy_step.py); its init
container's command, run from this image by runc under qemu-user, fills a
volume directory, every copied file is checked as aarch64 (check_bundle.py
--arch arm64), then Debian's arm64 OpenJDK 17 in the arm64 root, with the
volume at /jvmsight and exactly the env the webhook wrote, loads the copied
agent and serves /metrics. Then the copy step's failures (copy_step.py): the
init container's outcome for each, and the arm64 JVM for the one that lets
it start without the agent and the one where nothing was copied. Run in a
mount namespace of its own (ctest: unshare -m).

  image_copy_test.py <source-dir> <agent-archive> <injector-archive> <arm64-root>
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
import copy_step  # noqa: E402
import deploytest as dt  # noqa: E402

JDK = "/usr/lib/jvm/java-17-openjdk-arm64"


class ArmJvm:
    """The arm64 JVM in the root (chroot, qemu-user), the webhook's env, the
    volume bound read-only at /jvmsight and a directory for the port file at
    /jvmsight-test."""

    def __init__(self, src, root, env, work):
        self.root, self.env, self.work = root, dict(env, PATH="/usr/bin:/bin"), work
        self.classes, self.out = work / "classes", work / "out"
        self.out.mkdir(mode=0o777)
        (work / "Started.java").write_text(copy_step.STARTED)
        subprocess.run(["javac", "--release", "17", "-d", str(self.classes),
                        str(Path(src, "deploy/kubernetes/demo/Demo.java")), str(work / "Started.java")], check=True)
        subprocess.run([str(Path(src, "tests/arm64/root.sh")), "mounts", str(root)], check=True)
        for d in ("jvmsight", "jvmsight-test"):
            (root / d).mkdir(exist_ok=True)
        subprocess.run(["mount", "--bind", str(self.out), str(root / "jvmsight-test")], check=True)

    def start(self, volume, main, log):
        subprocess.run(["mount", "--bind", "-o", "ro", str(volume), str(self.root / "jvmsight")], check=True)
        return subprocess.Popen(["/usr/sbin/chroot", str(self.root), f"{JDK}/bin/java", "-cp", str(self.classes),
                                 main], env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)

    def unmount(self):
        subprocess.run(["umount", str(self.root / "jvmsight")], check=True)

    def serve(self, volume):
        with open(self.work / "jvm.log", "w") as log:
            jvm = self.start(volume, "Demo", log)
            try:
                self.check_serving(jvm)
            finally:
                jvm.kill()
                jvm.wait()
                self.unmount()

    def check_serving(self, jvm):
        port_file, deadline = self.out / "port", time.time() + 120
        while not port_file.exists() or not port_file.read_text().strip():
            if jvm.poll() is not None or time.time() > deadline:
                dt.fail(f"the arm64 JVM served no port; its output:\n{(self.work / 'jvm.log').read_text()}")
            time.sleep(0.5)
        port = int(port_file.read_text())
        # 503 means "try again": a cold emulated JVM's first collection can
        # outlast the agent's 5 s deadline (as JVMSIGHT_TEST_EMULATED allows in run.sh).
        status, body = dt.http_get(port, "/metrics")
        while status == 503 and time.time() < deadline:
            time.sleep(1)
            status, body = dt.http_get(port, "/metrics")
        if status != 200 or "jvm_threads_current" not in body:
            dt.fail(f"/metrics answered {status}: {body[:300]}")
        maps = Path(f"/proc/{jvm.pid}/maps").read_text()
        for soname in ("libjvmsight-loader.so", "libjvmsight.so"):
            if f"/jvmsight/{soname}" not in maps:
                dt.fail(f"the arm64 JVM did not map /jvmsight/{soname}")
        text = (self.work / "jvm.log").read_text()
        if "Picked up JAVA_TOOL_OPTIONS" not in text or "jvmsight: serving" not in text:
            dt.fail(f"expected the options picked up and the agent serving:\n{text}")
        print(f"arm64 JVM (qemu-user) loaded the copied agent from /jvmsight; /metrics on 127.0.0.1:{port} "
              f"({len(body)} bytes)")

    def run(self, volume):
        """A program that prints and exits: (exit code, output)."""
        log_path = self.work / "run.log"
        with open(log_path, "w") as log:
            jvm = self.start(volume, "Started", log)
            try:
                code = jvm.wait(timeout=180)
            finally:
                jvm.kill()
                self.unmount()
        return code, log_path.read_text()


def main(src, archive, injector_archive, root):
    dt.need_tools("umoci", "runc", "javac", "openssl")
    src, root = Path(src), Path(root).resolve()
    if os.environ.get("JVMSIGHT_ARM64_NS") != "1":
        dt.fail("run me in a mount namespace of my own: JVMSIGHT_ARM64_NS=1 unshare -m --propagation private ...")
    subprocess.run([str(src / "tests/arm64/root.sh"), "binfmt"], check=True)
    doc = (src / "docs/KUBERNETES.md").read_text()
    with tempfile.TemporaryDirectory(prefix="jvmsight-arm64-image-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)
        runc = dt.Runc(work)
        try:
            bundle, _, config = dt.unpack_image(archive, work, arch="arm64")
            if config.get("architecture") != "arm64":
                dt.fail(f"linux/arm64 entry's config says architecture {config.get('architecture')!r}")
            rootfs = bundle / "rootfs"
            copy_step.check_rootfs(rootfs, src)
            init, container, _ = copy_step.webhook_pod(runc, injector_archive, work)
            volume = work / "volume"
            volume.mkdir()
            volume.chmod(0o777)  # an emptyDir
            code, out = copy_step.run_init(runc, rootfs, init, volume, work, "copy")
            if code != 0:
                dt.fail(f"the arm64 copy step exited {code}: {out}")
            print(f"arm64 copy step: {out.strip()}")
            # What was placed, with the image's SHA256SUMS beside it: every file
            # listed, as the image has it, aarch64, within the floor.
            placed = work / "placed"
            placed.mkdir()
            for f in [*volume.iterdir(), rootfs / "opt/jvmsight/SHA256SUMS"]:
                (placed / f.name).write_bytes(f.read_bytes())
            subprocess.run(["/usr/bin/python3", str(src / "deploy/image/check_bundle.py"), "--arch", "arm64",
                            str(placed)], check=True)
            jvm = ArmJvm(src, root, copy_step.java_env(container), work)
            jvm.serve(volume)
            copy_step.failures(runc, rootfs, init, work, jvm.run, doc,
                               jvm_cases={"disk-full-after-loader", "skipped"})
        finally:
            runc.cleanup()
    print("image_copy_test: passed")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
