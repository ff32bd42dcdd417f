#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build one flavour of the kernel out of tree.
#   mk/kernel.sh FLAVOUR     (hgroup | debug | baseline | regress | regress-base)
# The .config is tinyconfig plus the flavour's fragments; it is regenerated
# only when a fragment changes, so repeated builds stay incremental.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
B=$repo/build
tree=$B/linux
flavour=$1
obj=$B/obj-$flavour
jobs=${JOBS:-2}

frags="$repo/mk/config/base.config $repo/tools/testing/selftests/hgroup/config"
case $flavour in
hgroup) ;;
debug) frags="$frags $repo/mk/config/debug.config" ;;
baseline) frags="$frags $repo/mk/config/baseline.config" ;;
regress) frags="$frags $repo/mk/config/regress.config" ;;
regress-base) frags="$frags $repo/mk/config/regress.config $repo/mk/config/baseline.config" ;;
*) echo "kernel.sh: unknown flavour $flavour" >&2; exit 2 ;;
esac

mkdir -p "$obj"
sum=$(cat $frags | sha1sum | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.hg-config.sum" 2>/dev/null)" != "$sum" ]; then
	echo "  CONFIG  $flavour"
	make -s -C "$tree" O="$obj" tinyconfig >/dev/null
	(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" .config $frags >/dev/null)
	make -s -C "$tree" O="$obj" olddefconfig >/dev/null
	# Every option a fragment asks for must have survived olddefconfig.
	bad=0
	for f in $frags; do
		grep -E '^(CONFIG_[A-Z0-9_]+=.*|# CONFIG_[A-Z0-9_]+ is not set)$' "$f" |
		while read -r line; do
			case $line in
			"# "*) opt=${line#\# }; opt=${opt%% *}
			       if grep -q "^$opt=" "$obj/.config"; then
				       echo "config: $opt is set, wanted unset"; fi ;;
			*) if ! grep -qx "$line" "$obj/.config"; then
				       echo "config: $line did not survive"; fi ;;
			esac
		done
	done | tee "$obj/.hg-config.warn"
	[ -s "$obj/.hg-config.warn" ] && bad=1
	[ $bad = 0 ] || { echo "kernel.sh: config fragments not satisfied" >&2; exit 1; }
	echo "$sum" > "$obj/.hg-config.sum"
fi

echo "  KBUILD  $flavour ($(make -s -C "$tree" O="$obj" kernelversion))"
make -s -C "$tree" O="$obj" -j"$jobs" bzImage ${KBUILD_EXTRA:-}
make -s -C "$tree" O="$obj" headers >/dev/null
echo "  KERNEL  $flavour: Linux $(cat "$obj/include/config/kernel.release") from Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12)"
