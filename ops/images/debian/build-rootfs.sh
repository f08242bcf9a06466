#!/usr/bin/env bash
# A minimal Debian root file system for the stand-in images: debootstrap minbase with CA certificates, made slim as
# Debian's -slim images are (no documentation, manuals or translations, now or in later installs).
# Usage: build-rootfs.sh SUITE DIR MIRROR. ops/images/build.sh keys the Debian image on this file's content.
set -euo pipefail
suite="$1" dir="$2" mirror="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
debootstrap --variant=minbase --include=ca-certificates "$suite" "$dir" "$mirror" >"$dir.log" 2>&1 ||
  { tail -n 20 "$dir.log" >&2; echo "base images: debootstrap failed" >&2; exit 1; }
cp "$here/slim.dpkg.cfg" "$dir/etc/dpkg/dpkg.cfg.d/slim"
rm -rf "$dir/usr/share/doc/"* "$dir/usr/share/man/"* "$dir/usr/share/info/"* "$dir/usr/share/locale/"* \
  "$dir/var/cache/apt/archives/"*.deb "$dir/var/lib/apt/lists/"*
