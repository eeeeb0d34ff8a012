#!/usr/bin/python3
"""Checks an agent bundle (deploy/image/bundle.sh) before it ships.

Fails, naming the file, when the bundle is not exactly the files
deploy/image/bundle.list names (one missing, or one more), when SHA256SUMS
does not list exactly those files with their hashes, in the list's order
(the image's copy step checks every file it copies against it), when the
loader needs more than libc, or when, read from its ELF headers (readelf):
- it needs a symbol version newer than the floor below (the JVM images we
  promise to run in would refuse to load it);
- it needs a library that is neither in the bundle nor expected from the
  image (glibc and the GCC C++ runtime);
- its RUNPATH is not exactly $ORIGIN, or it still carries debug sections;
- it is built for another architecture than the bundle's (--arch; default
  amd64): an arm64 bundle with one x86-64 library in it fails on a Graviton
  node only when that library is loaded.

Given several bundles (one per architecture), each is checked and all must
carry the same names.

Usage: check_bundle.py [--arch amd64|arm64] <bundle-dir> [[--arch ...] <bundle-dir>]...
"""
import hashlib
import re
import subprocess
import sys
from pathlib import Path

# Highest symbol version each runtime may be asked for. glibc 2.34: Amazon
# Linux 2023 and UBI 9 (Ubuntu 22.04 has 2.35, Debian 12 2.36, Ubuntu 24.04
# 2.39). GLIBCXX_3.4.29 / CXXABI_1.3.13 / GCC_7.0.0: the GCC 11 runtime of
# Amazon Linux 2023 and UBI 9. The same floor holds on arm64: those
# distributions ship the same glibc and GCC runtime for aarch64 (Graviton's
# Amazon Linux 2023 is glibc 2.34 too), and aarch64 symbol versions start at
# GLIBC_2.17, so nothing older is asked of them. docs/KUBERNETES.md states
# the same floor.
FLOOR = {
    "GLIBC": (2, 34),
    "GLIBCXX": (3, 4, 29),
    "CXXABI": (1, 3, 13),
    "GCC": (7, 0, 0),
}

# Per architecture: readelf's name for the ELF machine, and the dynamic
# linker's soname (the only soname of the image that differs).
ARCHES = {
    "amd64": ("Advanced Micro Devices X86-64", "ld-linux-x86-64.so.2"),
    "arm64": ("AArch64", "ld-linux-aarch64.so.1"),
}

# Sonames the image provides (bundle.sh leaves exactly these out), besides
# the architecture's dynamic linker.
FROM_IMAGE = {
    "libc.so.6", "libm.so.6", "libmvec.so.1",
    "libpthread.so.0", "libdl.so.2", "librt.so.1", "libresolv.so.2",
    "libutil.so.1", "libanl.so.1", "libstdc++.so.6", "libgcc_s.so.1",
}


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], check=True,
                          capture_output=True, text=True).stdout


def version_needs(path):
    """Symbol versions this file asks of other libraries, e.g. GLIBC_2.34."""
    section = readelf("-V", str(path)).split(".gnu.version_r", 1)
    if len(section) < 2:
        return set()
    return set(re.findall(r"Name: ([A-Z]+)_([0-9.]+)", section[1]))


LIST = Path(__file__).resolve().parent / "bundle.list"
SUMS = "SHA256SUMS"
LOADER = "libjvmsight-loader.so"


def listed_names():
    """The names bundle.list gives, in its order."""
    lines = (line.split() for line in LIST.read_text().splitlines())
    return [words[0] for words in lines if words and not words[0].startswith("#")]


def file_set_errors(bundle, present):
    """The bundle against bundle.list and its own SHA256SUMS."""
    names = listed_names()
    errors = [f"{n} is missing (deploy/image/bundle.list names it)" for n in names if n not in present]
    errors += [f"{n} is not in deploy/image/bundle.list" for n in sorted(present - set(names))]
    sums = Path(bundle, SUMS)
    if not sums.is_file():
        return errors + [f"no {SUMS}"]
    entries = [line.split("  ", 1) for line in sums.read_text().splitlines()]
    if [e[-1] for e in entries] != [n for n in names if n in present]:
        errors.append(f"{SUMS} lists {[e[-1] for e in entries]}, not the bundle's files in bundle.list's order")
    for digest, name in (e for e in entries if len(e) == 2 and e[1] in present):
        if hashlib.sha256(Path(bundle, name).read_bytes()).hexdigest() != digest:
            errors.append(f"{name} differs from its {SUMS} entry")
    return errors


def check(bundle, arch):
    """(errors, names) of one bundle."""
    machine, dynamic_linker = ARCHES[arch]
    files = sorted(p for p in Path(bundle).iterdir() if p.is_file() and p.name != SUMS)
    present = {p.name for p in files}
    errors = file_set_errors(bundle, present)
    highest = {}
    for f in files:
        header = re.search(r"Machine:\s*(.+)", readelf("-h", str(f)))
        if not header or header.group(1).strip() != machine:
            errors.append(f"{f.name} is built for {header.group(1).strip() if header else '?'}, not {arch}")
        dynamic = readelf("-d", str(f))
        if f.name == LOADER and re.findall(r"\(NEEDED\).*\[(.+)\]", dynamic) != ["libc.so.6"]:
            errors.append(f"{f.name} needs more than libc.so.6: it must load wherever a JVM does")
        for needed in re.findall(r"\(NEEDED\).*\[(.+)\]", dynamic):
            if needed not in present and needed not in FROM_IMAGE and needed != dynamic_linker:
                errors.append(f"{f.name} needs {needed}, which is neither in the bundle nor in a JVM image")
        runpath = re.findall(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", dynamic)
        expected = ["$ORIGIN"]
        if runpath != expected:
            errors.append(f"{f.name}: RUNPATH is {runpath}, expected {expected}")
        if re.search(r"\] \.debug_", readelf("-S", str(f))):
            errors.append(f"{f.name} carries debug sections (not stripped)")
        for family, dotted in version_needs(f):
            if family not in FLOOR:
                continue
            version = tuple(int(x) for x in dotted.split("."))
            if version > FLOOR[family]:
                floor = ".".join(map(str, FLOOR[family]))
                errors.append(f"{f.name} needs {family}_{dotted}, above the floor {family}_{floor}")
            if version > highest.get(family, ()):
                highest[family] = version
    needs = ", ".join(f"{k}_{'.'.join(map(str, v))}" for k, v in sorted(highest.items()))
    print(f"check_bundle: {arch}, {len(files)} files ({', '.join(sorted(present))}); highest versions needed: {needs}")
    return [f"{arch}: {e}" for e in errors], present


def parse(args):
    """[(arch, dir)] from [--arch A] dir ..., or None."""
    bundles = []
    while args:
        arch = "amd64"
        if args[0] == "--arch":
            if len(args) < 3 or args[1] not in ARCHES:
                return None
            arch, args = args[1], args[2:]
        bundles.append((arch, args[0]))
        args = args[1:]
    return bundles or None


def main(args):
    bundles = parse(args)
    if bundles is None:
        sys.exit(__doc__)
    problems, name_sets = [], []
    for arch, bundle in bundles:
        errors, names = check(bundle, arch)
        problems += errors
        name_sets.append((arch, names))
    if len({frozenset(n) for _, n in name_sets}) > 1:
        problems.append("the bundles carry different files: " +
                        "; ".join(f"{a}: {sorted(n)}" for a, n in name_sets))
    for p in problems:
        print(f"check_bundle: FAIL: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
