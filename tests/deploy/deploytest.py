"""Shared pieces of the deploy tests: JDK discovery, the agent image unpacked
with umoci, containers run with runc the way the kubelet would run them, and
the kubelet's env expansion. Debian's /usr/bin/python3 with python3-yaml."""
import json
import os
import re
import shutil
import subprocess
import tarfile
import time
import urllib.request
from pathlib import Path

# glibc and the GCC C++ runtime: the only libraries the agent may take from
# the JVM's image (deploy/image/bundle.sh says why).
IMAGE_LIBS = {"linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6",
              "libpthread.so.0", "libdl.so.2", "librt.so.1", "libresolv.so.2",
              "libstdc++.so.6", "libgcc_s.so.1"}


def fail(msg):
    raise SystemExit(f"FAIL: {msg}")


def need_tools(*names):
    missing = [n for n in names if not shutil.which(n)]
    if missing:
        fail(f"missing tools {missing}: scripts/quickstart.sh test installs them")


def jdks():
    """Every distinct JDK under /usr/lib/jvm (JVMSIGHT_TEST_JDKS overrides)."""
    env = os.environ.get("JVMSIGHT_TEST_JDKS")
    homes = env.split(":") if env else sorted(str(p) for p in Path("/usr/lib/jvm").iterdir())
    found, seen = [], set()
    for home in homes:
        java = Path(home, "bin/java")
        if Path(home).is_symlink() or not java.exists() or not Path(home, "bin/javac").exists():
            continue
        real = java.resolve()
        if real in seen:
            continue
        seen.add(real)
        found.append(Path(home))
    if not found:
        fail("no JDK under /usr/lib/jvm")
    return found


def validate_manifests(src, tools, work, text, label):
    """Validates rendered manifests against the Kubernetes schemas (validate.js,
    npm kubernetes-models); returns the objects."""
    import yaml
    path = Path(work) / f"{label}.yaml"
    path.write_text(text)
    env = dict(os.environ, NODE_PATH=str(Path(tools) / "node/node_modules"))
    p = subprocess.run(["node", str(Path(src) / "tests/deploy/node/validate.js"), str(path)],
                       capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0:
        fail(f"{label}: schema validation failed:\n{p.stdout}{p.stderr}")
    print(f"{label}: {p.stdout.strip()}")
    return [d for d in yaml.safe_load_all(text) if d]


def ldd(path):
    """soname -> resolved path (or None when not found)."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout
    libs = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (not found|(\S+))", line)
        if m:
            libs[m.group(1)] = m.group(3)
        elif line.strip().startswith("/"):
            libs[Path(line.split()[0]).name] = line.split()[0]
    return libs


# ELF e_machine of each platform's binaries (the ELF header, offset 18).
ELF_MACHINE = {"amd64": 0x3E, "arm64": 0xB7}
INDEX_TYPE = "application/vnd.oci.image.index.v1+json"


def extract_layout(archive, work):
    layout = work / "layout"
    if not layout.exists():
        layout.mkdir()
        with tarfile.open(archive) as t:
            t.extractall(layout)
    return layout


def image_index(layout):
    """(tag, {architecture: manifest descriptor}) of the archive's one tagged
    image index (deploy/image/build.sh pushes linux/amd64 and linux/arm64)."""
    top = json.loads((layout / "index.json").read_text())["manifests"]
    if len(top) != 1 or top[0].get("mediaType") != INDEX_TYPE:
        fail(f"expected one image index in index.json, found {[m.get('mediaType') for m in top]}")
    tag = top[0].get("annotations", {}).get("org.opencontainers.image.ref.name", "")
    platforms = {}
    for m in json.loads(blob(layout, top[0]["digest"]))["manifests"]:
        p = m.get("platform", {})
        platforms[f"{p.get('os')}/{p.get('architecture')}"] = m
    return tag, platforms


def unpack_image(archive, work, arch="amd64"):
    """umoci unpack of one platform's image from the OCI archive's index:
    returns (runtime bundle dir, tag, image config). umoci unpacks one
    manifest, so this platform's manifest gets the tag in a copy of the layout."""
    layout = extract_layout(archive, work)
    tag, platforms = image_index(layout)
    chosen = platforms.get(f"linux/{arch}")
    if chosen is None:
        fail(f"{archive}: no linux/{arch} in the index ({sorted(platforms)})")
    one = work / f"layout-{arch}"
    shutil.copytree(layout, one, symlinks=True)
    ref = {"org.opencontainers.image.ref.name": tag}
    (one / "index.json").write_text(json.dumps({"schemaVersion": 2, "manifests": [dict(chosen, annotations=ref)]}))
    tags = subprocess.run(["umoci", "ls", "--layout", str(one)], check=True,
                          capture_output=True, text=True).stdout.split()
    if tags != [tag]:
        fail(f"{archive}: expected the one tag {tag!r}, found {tags}")
    bundle = work / f"image-bundle-{arch}"
    subprocess.run(["umoci", "unpack", "--image", f"{one}:{tag}", str(bundle)],
                   check=True, capture_output=True)
    manifest = json.loads(blob(one, chosen["digest"]))
    config = json.loads(blob(one, manifest["config"]["digest"]))
    return bundle, tag, config


def layer_elf_machines(layout, descriptor):
    """{path: e_machine} of every ELF file in this manifest's layers."""
    manifest = json.loads(blob(layout, descriptor["digest"]))
    found = {}
    for layer in manifest["layers"]:
        algo, hexd = layer["digest"].split(":")
        with tarfile.open(layout / "blobs" / algo / hexd) as t:
            for member in t:
                if not member.isfile():
                    continue
                head = t.extractfile(member).read(20)
                if head[:4] == b"\x7fELF":
                    found[member.name] = int.from_bytes(head[18:20], "little")
    return found


def blob(layout, digest):
    algo, hexd = digest.split(":")
    return (layout / "blobs" / algo / hexd).read_text()


class Runc:
    """Containers under a private runc state root, removed at exit."""

    def __init__(self, work):
        self.root = work / "runc-state"
        self.ids = []
        self.count = 0

    def _cmd(self, *args):
        return ["runc", "--root", str(self.root), *args]

    def run(self, bundle, timeout):
        """Runs to completion; returns (exit code, output)."""
        cid = self._new_id()
        p = subprocess.run(self._cmd("run", "-b", str(bundle), cid), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr

    def start(self, bundle, log):
        """Starts detached; output goes to log. Returns the container id."""
        cid = self._new_id()
        with open(log, "w") as out:
            subprocess.run(self._cmd("run", "--detach", "-b", str(bundle), cid), check=True,
                           stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=30)
        return cid

    def running(self, cid):
        p = subprocess.run(self._cmd("state", cid), capture_output=True, text=True)
        return p.returncode == 0 and json.loads(p.stdout)["status"] == "running"

    def kill(self, cid):
        subprocess.run(self._cmd("kill", cid, "KILL"), capture_output=True)
        subprocess.run(self._cmd("delete", "--force", cid), capture_output=True)

    def cleanup(self):
        for cid in self.ids:
            self.kill(cid)

    def _new_id(self):
        self.count += 1
        cid = f"jvmsight-deploy-{os.getpid()}-{self.count}"
        self.ids.append(cid)
        return cid


def runtime_config(args, env, cwd="/", uid=0, readonly_root=False, host_network=False):
    """A runc config.json for a plain process, like `runc spec` writes."""
    namespaces = [{"type": t} for t in ("pid", "ipc", "uts", "mount")]
    if not host_network:
        namespaces.append({"type": "network"})
    return {
        "ociVersion": "1.0.2",
        "process": {"terminal": False, "user": {"uid": uid, "gid": uid}, "args": args,
                    "env": env, "cwd": cwd, "noNewPrivileges": True,
                    "capabilities": {k: [] for k in ("bounding", "effective", "permitted")}},
        "root": {"path": "rootfs", "readonly": readonly_root},
        "mounts": [
            {"destination": "/proc", "type": "proc", "source": "proc"},
            {"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
             "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
            {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=1777"]},
        ],
        "linux": {"namespaces": namespaces,
                  "maskedPaths": ["/proc/kcore", "/proc/keys"], "readonlyPaths": ["/proc/sys"]},
    }


def bind(source, destination, readonly=True):
    return {"destination": str(destination), "type": "bind", "source": str(source),
            "options": ["rbind", "ro" if readonly else "rw"]}


def jvm_rootfs_mounts(jdk, rootfs):
    """Mounts that make a JVM image out of nothing: the JDK, what its own
    binaries link (glibc, zlib...), /etc/java-* for Debian's JDKs, and the
    GCC C++ runtime every JVM base image has (Temurin's JVM does not link it).
    Nothing of the agent's libraries: those must come from the volume."""
    mounts = [bind(jdk.resolve(), jdk.resolve())]
    if jdk.resolve() != jdk:
        mounts.append(bind(jdk.resolve(), jdk))
    for etc in Path("/etc").glob("java-*"):
        mounts.append(bind(etc.resolve(), etc))
    libs = cxx_runtime()
    for f in [jdk / "bin/java", jdk / "bin/javac", *jdk.resolve().glob("lib/**/*.so")]:
        for soname, path in ldd(f).items():
            if path:
                libs[soname] = path
    for soname, path in libs.items():
        if Path(path).resolve().is_relative_to(jdk.resolve()):
            continue
        mounts.append(bind(Path(path).resolve(), Path("/usr/lib/x86_64-linux-gnu") / soname))
    (rootfs / "lib64").mkdir(parents=True, exist_ok=True)
    (rootfs / "lib64/ld-linux-x86-64.so.2").symlink_to("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")
    (rootfs / "lib").symlink_to("usr/lib")
    return mounts, set(libs)


def cxx_runtime():
    """soname -> path of this machine's libstdc++ and libgcc_s (ldconfig's cache)."""
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(libstdc\+\+\.so\.6|libgcc_s\.so\.1) \(libc6,x86-64\) => (\S+)", line)
        if m:
            found.setdefault(m.group(1), m.group(2))
    if len(found) != 2:
        fail(f"ldconfig -p lists no libstdc++.so.6 / libgcc_s.so.1: {found}")
    return found


def kubelet_env(container, pod):
    """The environment the kubelet gives a container: env entries in order,
    $(VAR) expanded from the ones defined before it ($$ escapes), unknown
    references left as they are; fieldRef from the pod's fields."""
    env = {}
    for e in container.get("env", []):
        if "valueFrom" in e:
            path = e["valueFrom"]["fieldRef"]["fieldPath"]
            env[e["name"]] = pod[path]
            continue

        def expand(m):
            if m.group(0) == "$$":
                return "$"
            return env.get(m.group(1), m.group(0))
        env[e["name"]] = re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)", expand, e.get("value", ""))
    return env


def agent_options(java_tool_options):
    """(path, {key: value}) of the -agentpath in JAVA_TOOL_OPTIONS."""
    tokens = [t for t in java_tool_options.split() if t.startswith("-agentpath:")]
    if len(tokens) != 1:
        fail(f"expected one -agentpath in JAVA_TOOL_OPTIONS, got {java_tool_options!r}")
    path, _, opts = tokens[0][len("-agentpath:"):].partition("=")
    return path, dict(kv.split("=", 1) for kv in opts.split(",") if kv)


def with_agent_options(java_tool_options, **override):
    """JAVA_TOOL_OPTIONS with some agent options replaced (test ports)."""
    path, opts = agent_options(java_tool_options)
    opts.update(override)
    agent = f"-agentpath:{path}=" + ",".join(f"{k}={v}" for k, v in opts.items())
    return " ".join(agent if t.startswith("-agentpath:") else t for t in java_tool_options.split())


def wait_for_port(portfile, cid, runc, log, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if portfile.exists() and portfile.read_text().strip():
            return int(portfile.read_text())
        if not runc.running(cid):
            fail(f"the JVM exited before serving; its output:\n{Path(log).read_text()}")
        time.sleep(0.2)
    fail(f"no port in {portfile} after {timeout}s; JVM output:\n{Path(log).read_text()}")


def http_get(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""
