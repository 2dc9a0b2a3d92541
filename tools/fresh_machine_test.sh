#!/usr/bin/env bash
# The README's Quick start on a new Debian 12 machine: a minimal bookworm made with debootstrap in a
# folder (no container engine is needed), a clean clone of this repository's HEAD inside it, and
# the two commands run as root in the order given:
#   bash tools/fresh_machine_test.sh ROOT [demo,test | test,demo | demo,demo ...]
# ROOT is made once and reused as it is; give a new folder for a really new machine. Needs root.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:?usage: fresh_machine_test.sh ROOT [demo,test]}
order=${2:-demo,test}

if ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 debootstrap
fi
if [ ! -x "$root/usr/bin/apt-get" ]; then
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT

# git is not part of a minimal system: the clone is made here and copied in, as `git clone` would.
rm -rf "$root/root/kindred"
git clone -q "$here" "$root/root/kindred"
for mode in ${order//,/ }; do
  echo "=== fresh machine: bash tools/quickstart.sh $mode"
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 bash -c "cd /root/kindred && bash tools/quickstart.sh $mode"
done
echo "=== fresh machine: $order passed"
