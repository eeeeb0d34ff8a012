#!/usr/bin/python3
"""The arm64 agent image as an arm64 node would use it (docs/ARM64.md): the
linux/arm64 entry of the image index is unpacked (umoci), its own command
(the arm64 busybox's copy, run by runc under qemu-user) fills a volume
directory, every copied file is checked as aarch64 (check_bundle.py --arch
arm64), then Debian's arm64 OpenJDK 17 in the arm64 root, with the volume
at /jvmsight, loads the copied agent through JAVA_TOOL_OPTIONS and serves
/metrics. Run in a mount namespace of its own (ctest: unshare -m).

  image_copy_test.py <source-dir> <oci-archive> <arm64-root>
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
import deploytest as dt  # noqa: E402
import image_test  # noqa: E402

JDK = "/usr/lib/jvm/java-17-openjdk-arm64"


def run_jvm(src, root, volume, work):
    classes, out = work / "classes", work / "out"
    out.mkdir()
    subprocess.run(["javac", "--release", "17", "-d", str(classes),
                    str(Path(src, "deploy/kubernetes/demo/Demo.java"))], check=True)
    subprocess.run([str(Path(src, "tests/arm64/root.sh")), "mounts", str(root)], check=True)
    (root / "jvmsight").mkdir(exist_ok=True)
    subprocess.run(["mount", "--bind", "-o", "ro", str(volume), str(root / "jvmsight")], check=True)
    env = {"PATH": "/usr/bin:/bin",
           "JAVA_TOOL_OPTIONS": f"-agentpath:/jvmsight/libjvmsight-loader.so=port=0,host=127.0.0.1,portfile={out}/port"}
    log = open(work / "jvm.log", "w")
    jvm = subprocess.Popen(["/usr/sbin/chroot", str(root), f"{JDK}/bin/java", "-cp", str(classes), "Demo"], env=env,
                           stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while not (out / "port").exists() or not (out / "port").read_text().strip():
            if jvm.poll() is not None or time.time() > deadline:
                dt.fail(f"the arm64 JVM served no port; its output:\n{(work / 'jvm.log').read_text()}")
            time.sleep(0.5)
        port = int((out / "port").read_text())
        status, body = dt.http_get(port, "/metrics")
        if status != 200 or "jvm_threads_current" not in body:
            dt.fail(f"/metrics answered {status}: {body[:300]}")
        maps = Path(f"/proc/{jvm.pid}/maps").read_text()
        for soname in ("libjvmsight-loader.so", "libjvmsight.so"):
            if f"/jvmsight/{soname}" not in maps:
                dt.fail(f"the arm64 JVM did not map /jvmsight/{soname}")
        text = (work / "jvm.log").read_text()
        if "Picked up JAVA_TOOL_OPTIONS" not in text or "jvmsight: serving" not in text:
            dt.fail(f"expected the options picked up and the agent serving:\n{text}")
        print(f"arm64 JVM (qemu-user) loaded the copied agent from /jvmsight; /metrics on 127.0.0.1:{port} "
              f"({len(body)} bytes)")
    finally:
        jvm.kill()
        jvm.wait()
        log.close()


def main(src, archive, root):
    dt.need_tools("umoci", "runc", "javac")
    root = Path(root).resolve()
    if os.environ.get("JVMSIGHT_ARM64_NS") != "1":
        dt.fail("run me in a mount namespace of my own: JVMSIGHT_ARM64_NS=1 unshare -m --propagation private ...")
    subprocess.run([str(Path(src, "tests/arm64/root.sh")), "binfmt"], check=True)
    with tempfile.TemporaryDirectory(prefix="jvmsight-arm64-image-") as tmp:
        work = Path(tmp)
        runc = dt.Runc(work)
        try:
            bundle, _, config = dt.unpack_image(archive, work, arch="arm64")
            if config.get("architecture") != "arm64":
                dt.fail(f"linux/arm64 entry's config says architecture {config.get('architecture')!r}")
            volume = work / "volume"
            volume.mkdir()
            volume.chmod(0o777)  # an emptyDir
            image_test.run_copy(runc, bundle, volume)
            subprocess.run(["/usr/bin/python3", str(Path(src, "deploy/image/check_bundle.py")), "--arch", "arm64",
                            str(volume)], check=True)
            run_jvm(src, root, volume, work)
        finally:
            runc.cleanup()
    print("image_copy_test: 1 passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
