#!/usr/bin/env bash
# Makes a Node.js base image without a registry of images: a minimal Debian (debootstrap) with this
# machine's `node` and `npm` copied in and a `node` user (uid 1000), imported into podman as
# localhost/ag-ui-antigravity-node-base. It stands in for the official `node` image where no image
# registry is reachable; deploy/README.md ("Container image") shows how the Dockerfile uses it.
# Needs root, debootstrap and podman (apt-get install -y debootstrap podman).
set -euo pipefail
suite="${DEBIAN_SUITE:-bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
image="${NODE_BASE_IMAGE:-localhost/ag-ui-antigravity-node-base:latest}"
node_binary="$(command -v node)"
npm_root="$(npm root -g)/npm"

rootfs="$(mktemp -d "${TMPDIR:-/tmp}/node-base-rootfs-XXXXXX")"
# The root filesystem is only needed until podman has imported it.
trap 'rm -rf "$rootfs"' EXIT

debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >/dev/null
install -m 0755 "$node_binary" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_root" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --create-home --shell /bin/bash node
# Container runtimes write /etc/hosts when they start a container; a plain chroot needs one too
# (the emulator listens on localhost).
printf '127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n' > "$rootfs/etc/hosts"
# This machine's trust store, as the official image carries Debian's: npm inside the image reaches
# the registry through whatever this machine trusts (a company proxy's CA included).
mkdir -p "$rootfs/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
# Nothing the image does not need: apt's lists and caches, documentation.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*

tar -C "$rootfs" -c . | podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$image" >/dev/null
echo "$image ($("$node_binary" --version))"
