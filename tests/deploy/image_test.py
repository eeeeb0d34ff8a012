#!/usr/bin/python3
"""The agent image, as a cluster would use it, without a cluster.

Unpacks the OCI archive (umoci), checks its contents and version label, runs
its default command with runc into a volume directory, then starts a JVM of
every JDK in a container that has only the JDK and its own libraries, with
JAVA_TOOL_OPTIONS loading the agent from that directory, and scrapes it.

  image_test.py <source-dir> <oci-archive> <version>
"""
import json
import sys
import tempfile
from pathlib import Path

import deploytest as dt


def check_image_config(config, tag, version):
    labels = config.get("config", {}).get("Labels", {})
    if labels.get("org.opencontainers.image.version") != version:
        dt.fail(f"version label {labels.get('org.opencontainers.image.version')!r}, expected {version!r}")
    if tag != f"jvmsight-agent:{version}":
        dt.fail(f"archive tag {tag!r}, expected jvmsight-agent:{version}")
    if config["config"].get("User") != "65532:65532":
        dt.fail(f"image user {config['config'].get('User')!r}: the copy must not need root")


def check_rootfs(rootfs):
    """Minimal: busybox and the bundle, nothing else."""
    files = sorted(str(p.relative_to(rootfs)) for p in rootfs.rglob("*") if not p.is_dir())
    extra = [f for f in files if f != "bin/busybox" and not f.startswith("opt/jvmsight/")]
    if extra or not {"opt/jvmsight/libjvmsight.so", "opt/jvmsight/libjvmsight-loader.so"} <= set(files):
        dt.fail(f"unexpected image contents: {files}")
    print(f"image files: {files}")


def run_copy(runc, bundle, volume):
    """The init container: the image's own command, with the volume mounted
    at /jvmsight, a read-only root and the image's user."""
    config_path = bundle / "config.json"
    config = json.loads(config_path.read_text())
    config["process"]["terminal"] = False
    config["root"]["readonly"] = True
    config["mounts"].append(dt.bind(volume, "/jvmsight", readonly=False))
    config_path.write_text(json.dumps(config))
    code, out = runc.run(bundle, timeout=60)
    if code != 0:
        dt.fail(f"the copy command exited {code}: {out}")
    image_root = bundle / "rootfs/opt/jvmsight"
    image_files = {str(p.relative_to(image_root)): p.read_bytes() for p in image_root.rglob("*") if p.is_file()}
    copied = {str(p.relative_to(volume)): p.read_bytes() for p in volume.rglob("*") if p.is_file()}
    if copied != image_files:
        dt.fail(f"volume holds {sorted(copied)}, image bundle {sorted(image_files)} (or contents differ)")
    print(f"copied into the volume: {sorted(copied)}")


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


def run_jvm(runc, work, jdk, volume, classes):
    """A JVM 'image' of this JDK alone; the agent comes from the volume."""
    name = jdk.name
    bundle = work / f"jvm-{name}"
    rootfs = bundle / "rootfs"
    rootfs.mkdir(parents=True)
    out = work / f"out-{name}"
    out.mkdir(mode=0o777)
    out.chmod(0o777)
    mounts, _ = dt.jvm_rootfs_mounts(jdk, rootfs)
    env = [f"PATH={jdk}/bin:/usr/bin:/bin",
           "JAVA_TOOL_OPTIONS=-agentpath:/jvmsight/libjvmsight-loader.so=port=0,host=127.0.0.1,portfile=/out/port"]
    config = dt.runtime_config([f"{jdk}/bin/java", "-cp", "/classes", "Demo"], env, uid=10001,
                               host_network=True)
    config["mounts"] += mounts + [dt.bind(volume, "/jvmsight"), dt.bind(classes, "/classes"),
                                  dt.bind(out, "/out", readonly=False)]
    (bundle / "config.json").write_text(json.dumps(config))
    log = work / f"jvm-{name}.log"
    cid = runc.start(bundle, log)
    port = dt.wait_for_port(out / "port", cid, runc, log)
    status, body = dt.http_get(port, "/metrics")
    if status != 200 or "jvm_threads_current" not in body:
        dt.fail(f"{name}: /metrics answered {status}: {body[:300]}")
    pid = json.loads(dt.subprocess.run(runc._cmd("state", cid), capture_output=True,
                                       text=True).stdout)["pid"]
    maps = Path(f"/proc/{pid}/maps").read_text()
    for soname in ("libjvmsight-loader.so", "libjvmsight.so"):
        if f"/jvmsight/{soname}" not in maps:
            dt.fail(f"{name}: the JVM did not map /jvmsight/{soname}")
    print(f"{name}: agent loaded from the volume, /metrics on 127.0.0.1:{port} ({len(body)} bytes)")


def main(src, archive, version):
    dt.need_tools("umoci", "runc", "ldd")
    with tempfile.TemporaryDirectory(prefix="jvmsight-image-") as tmp:
        work = Path(tmp)
        runc = dt.Runc(work)
        jdks = dt.jdks()
        classes = work / "classes"
        dt.subprocess.run([str(jdks[0] / "bin/javac"), "--release", "17", "-d", str(classes),
                           str(Path(src, "deploy/kubernetes/demo/Demo.java"))], check=True)
        try:
            bundle, tag, config = dt.unpack_image(archive, work)
            check_image_config(config, tag, version)
            check_rootfs(bundle / "rootfs")
            volume = work / "volume"
            volume.mkdir()
            volume.chmod(0o777)  # an emptyDir
            run_copy(runc, bundle, volume)
            check_ldd(volume)
            for jdk in jdks:
                run_jvm(runc, work, jdk, volume, classes)
        finally:
            runc.cleanup()
    print("image_test: 1 passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
