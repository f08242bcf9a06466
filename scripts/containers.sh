#!/usr/bin/env bash
# Everything a container run needs (source this file): an engine (scripts/container-engine.sh) and, where the
# official base images cannot be had (no registry), the local stand-ins built from Debian packages
# (scripts/base-images.sh). Images named in NODE_IMAGE, POSTGRES_IMAGE and NATS_IMAGE are taken as they are.
_c_dir="$(dirname "${BASH_SOURCE[0]}")"
source "$_c_dir/container-engine.sh" || { unset _c_dir; return 1 2>/dev/null || exit 1; }
if [ -z "${NODE_IMAGE:-}" ] && ! "${CONTAINER_ENGINE}" image inspect node:24-bookworm-slim >/dev/null 2>&1 &&
  ! timeout 120 "${CONTAINER_ENGINE}" pull -q node:24-bookworm-slim >/dev/null 2>&1; then
  echo "containers: the official base images cannot be pulled here: using local stand-ins" >&2
  source "$_c_dir/base-images.sh" || { unset _c_dir; return 1 2>/dev/null || exit 1; }
fi
unset _c_dir
