#!/bin/sh
# record-stat.sh DEST: records /proc/stat before and after one second in
# which a busy loop runs pinned to CPU 1 (taskset), as DEST/before and
# DEST/after: the window the interference tests read (recorded on this
# 2-CPU VM with: ./record-stat.sh stat-busy-cpu1).
set -eu
dest=${1:?usage: record-stat.sh DEST}
mkdir -p "$dest"
cat /proc/stat >"$dest/before"
timeout 1 taskset -c 1 sh -c 'while :; do :; done' || true
cat /proc/stat >"$dest/after"
