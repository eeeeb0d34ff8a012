#!/usr/bin/python3
"""An image archive from deploy/image/build.sh is one image index for
linux/amd64 and linux/arm64, and each platform's layers carry binaries of
that platform only: every ELF file's machine (its header, not the name) is
x86-64 in the amd64 image and aarch64 in the arm64 one. A node pulls the
entry of its own architecture; one wrong binary there is "exec format
error" and a pod that never starts.

  index_test.py <oci-archive>
"""
import sys
import tempfile
from pathlib import Path

import deploytest as dt

NAMES = {0x3E: "x86-64", 0xB7: "aarch64"}


def main(archive):
    with tempfile.TemporaryDirectory(prefix="jvmsight-index-") as tmp:
        layout = dt.extract_layout(archive, Path(tmp))
        tag, platforms = dt.image_index(layout)
        want = {f"linux/{arch}" for arch in dt.ELF_MACHINE}
        if set(platforms) != want:
            dt.fail(f"{archive}: index lists {sorted(platforms)}, expected {sorted(want)}")
        for arch, machine in dt.ELF_MACHINE.items():
            elves = dt.layer_elf_machines(layout, platforms[f"linux/{arch}"])
            if not elves:
                dt.fail(f"linux/{arch}: no ELF file in its layers")
            wrong = {p: NAMES.get(m, hex(m)) for p, m in elves.items() if m != machine}
            if wrong:
                dt.fail(f"linux/{arch}: binaries of another architecture: {wrong}")
            print(f"{tag} linux/{arch}: {len(elves)} ELF files, all {NAMES[machine]}: {sorted(elves)}")
    print("index_test: 1 passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
