#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lay out the patched kernel tree in $1 (build/linux):
#  1. extract Debian's linux-source-6.12 once;
#  2. overlay this repo's new files as symlinks at their in-tree paths;
#  3. bring the applied patch series in line with patches/series: when the
#     series changed, reverse the old one and apply the new one, so only the
#     files the patches touch change and the build stays incremental.
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
tarball=/usr/src/linux-source-6.12.tar.xz

if [ ! -f "$tree/.hg-extracted" ]; then
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	echo "  EXTRACT $tarball"
	tar -C "$tree.tmp" -xf "$tarball"
	mv "$tree.tmp"/linux-source-6.12 "$tree"
	rmdir "$tree.tmp"
	touch "$tree/.hg-extracted"
fi

# Overlay: every file under these repo paths, symlinked file by file so
# that relative includes (../lib.mk, ../kselftest_harness.h) resolve in the
# kernel tree.  Stale links from files removed from the repo are dropped.
overlay_paths="kernel/hgroup include/linux/hgroup.h include/uapi/linux/hgroup.h
	tools/testing/selftests/hgroup tools/hgroup Documentation/hgroup.rst"
for d in kernel/hgroup tools/testing/selftests/hgroup tools/hgroup; do
	[ -d "$tree/$d" ] && find "$tree/$d" -xtype l -delete
done
cd "$repo"
for p in $overlay_paths; do
	[ -e "$p" ] || continue
	find "$p" -type f | while read -r f; do
		mkdir -p "$tree/$(dirname "$f")"
		if [ "$(readlink "$tree/$f" 2>/dev/null)" != "$repo/$f" ]; then
			ln -sfn "$repo/$f" "$tree/$f"
		fi
	done
done
# The repo's top-level Kconfig is sourced from init/Kconfig by a patch.
if [ "$(readlink "$tree/kernel/Kconfig.hgroup" 2>/dev/null)" != "$repo/Kconfig" ]; then
	ln -sfn "$repo/Kconfig" "$tree/kernel/Kconfig.hgroup"
fi

# Patches.
applied=$tree/.hg-applied
want=$(cd patches && cat series | grep -v '^#' | grep -v '^$' | while read -r p; do
	echo "$p $(sha1sum < "$p" | cut -c1-40)"; done)
have=$(cat "$applied/series.sum" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
	# A series that fails half-way leaves the tree unknown: start over
	# from a fresh extraction next time.
	trap 'rm -f "$tree/.hg-extracted"; echo "prepare: patch series failed" >&2' ERR
	# The files the old or the new series touch, with their contents'
	# sums and times now: those that come out of the new series as they
	# were get their times back, so only what a changed patch changes is
	# rebuilt, not everything the series touches.
	stamps=$tree/.hg-stamps
	cat "$applied"/*.patch patches/*.patch 2>/dev/null |
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | sort -u |
		while read -r f; do
			[ -f "$tree/$f" ] || continue
			echo "$(sha1sum < "$tree/$f" | cut -c1-40) $(stat -c %Y "$tree/$f") $f"
		done > "$stamps"
	if [ -f "$applied/series" ]; then
		tac "$applied/series" | while read -r p; do
			echo "  UNPATCH $p"
			patch -d "$tree" -p1 -R -s -E --no-backup-if-mismatch \
				< "$applied/$p"
		done
	fi
	rm -rf "$applied"
	mkdir -p "$applied.new"
	: > "$applied.new/series"
	grep -v '^#' patches/series | grep -v '^$' | while read -r p; do
		echo "  PATCH   $p"
		patch -d "$tree" -p1 -s -E --no-backup-if-mismatch -N \
			< "patches/$p"
		cp "patches/$p" "$applied.new/$p"
		echo "$p" >> "$applied.new/series"
	done
	while read -r sum mtime f; do
		if [ -f "$tree/$f" ] &&
		   [ "$(sha1sum < "$tree/$f" | cut -c1-40)" = "$sum" ]; then
			touch -d "@$mtime" "$tree/$f"
		fi
	done < "$stamps"
	echo "$want" > "$applied.new/series.sum"
	mv "$applied.new" "$applied"
fi
