#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build one flavour of the kernel out of tree.
#   mk/kernel.sh FLAVOUR     (hgroup | debug | kcsan | baseline | i386)
# The .config is tinyconfig plus the flavour's fragments; it is regenerated
# only when a fragment changes, so repeated builds stay incremental.
# hgroup and baseline also carry what the upstream selftests of make
# test-regress need (regress.config), so that make test-regress reuses
# them instead of building two more kernels, and make bench compares two
# kernels that differ only in CONFIG_HGROUP.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
tree=$B/linux
flavour=$1
obj=$B/obj-$flavour
jobs=${JOBS:-2}

frags="$repo/mk/config/base.config $repo/tools/testing/selftests/hgroup/config"
arch=()
case $flavour in
i386)
	# 32-bit, for make check only: its own fragment, not base.config.
	frags="$repo/mk/config/i386.config $repo/tools/testing/selftests/hgroup/config"
	arch=(ARCH=i386) ;;
hgroup) frags="$frags $repo/mk/config/regress.config" ;;
debug) frags="$frags $repo/mk/config/debug.config" ;;
kcsan) frags="$frags $repo/mk/config/kcsan.config" ;;
baseline) frags="$frags $repo/mk/config/regress.config $repo/mk/config/baseline.config" ;;
*) echo "kernel.sh: unknown flavour $flavour" >&2; exit 2 ;;
esac

mkdir -p "$obj"
sum=$(cat $frags | sha1sum | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.hg-config.sum" 2>/dev/null)" != "$sum" ]; then
	echo "  CONFIG  $flavour"
	make -s -C "$tree" O="$obj" "${arch[@]}" tinyconfig >/dev/null
	(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" .config $frags >/dev/null)
	make -s -C "$tree" O="$obj" "${arch[@]}" olddefconfig >/dev/null
	# Every option the fragments ask for (the last fragment to name an
	# option wins, as in merge_config.sh) must survive olddefconfig.
	cat $frags | sed -nE 's/^(CONFIG_[A-Z0-9_]+)=(.*)$/\1 \2/p; s/^# (CONFIG_[A-Z0-9_]+) is not set$/\1 n/p' |
	awk '{ want[$1] = $2 } END { for (o in want) print o, want[o] }' |
	while read -r opt val; do
		have=$(sed -nE "s/^$opt=(.*)$/\1/p" "$obj/.config")
		[ -n "$have" ] || have=n
		[ "$have" = "$val" ] || echo "config: $opt=$val wanted, got $have"
	done | tee "$obj/.hg-config.warn"
	if [ -s "$obj/.hg-config.warn" ]; then
		echo "kernel.sh: config fragments not satisfied" >&2
		exit 1
	fi
	echo "$sum" > "$obj/.hg-config.sum"
fi

echo "  KBUILD  $flavour ($(make -s -C "$tree" O="$obj" "${arch[@]}" kernelversion))"
make -s -C "$tree" O="$obj" "${arch[@]}" -j"$jobs" bzImage ${KBUILD_EXTRA:-}
make -s -C "$tree" O="$obj" "${arch[@]}" headers >/dev/null
echo "  KERNEL  $flavour: Linux $(cat "$obj/include/config/kernel.release") from Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12)"
