#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the guest need, only when something is missing,
# so that a warm machine never touches the network.
set -e

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_file() { [ -e "$1" ]; }

have_file /usr/src/linux-source-6.12.tar.xz || need+=(linux-source-6.12)
have_cmd gcc || need+=(gcc)
have_cmd make || need+=(make)
have_cmd flex || need+=(flex)
have_cmd bison || need+=(bison)
have_cmd bc || need+=(bc)
have_cmd cpio || need+=(cpio)
have_cmd xz || need+=(xz-utils)
have_cmd perl || need+=(perl)
have_cmd rsync || need+=(rsync)
have_cmd git || need+=(git)
have_cmd qemu-system-x86_64 || need+=(qemu-system-x86)
dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' ||
	need+=(busybox-static)
have_file /usr/include/libelf.h || need+=(libelf-dev)
have_file /usr/include/openssl/ssl.h || need+=(libssl-dev)
have_file /usr/lib/x86_64-linux-gnu/libcap.a || need+=(libcap-dev)
have_cmd sparse || need+=(sparse)
# compat32_test is built with -m32, static.
have_file /usr/lib32/libc.a || need+=(gcc-multilib)
# checkpatch's SPDX check runs Debian's python3 with ply and GitPython.
/usr/bin/python3 -c 'import ply' 2>/dev/null || need+=(python3-ply)
/usr/bin/python3 -c 'import git' 2>/dev/null || need+=(python3-git)

[ ${#need[@]} -eq 0 ] && exit 0
echo "deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
