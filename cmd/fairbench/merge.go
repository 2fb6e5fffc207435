package main

import (
	"fmt"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse/runjson"
)

var mergeCommand = command{
	summary: "join the shard run dirs of one suite into one run",
	usage: `fairbench merge [-out DIR] [-partial] RUNDIR...

Joins the run dirs of the N shards of one suite (fairbench collect -shard
I/N) into a new run dir under -out, named after the earliest start
(<start>-merged), and prints its path. The shards must come from the same
suite bytes (the same suite_sha256), cut into the same N, each shard once,
each complete; no target may be in two of them. Every dump, stderr file and
conformance transcript is copied byte for byte and each dump checked against
the sha256 its run.json recorded: a dump that changed stops the merge, and
nothing is written until every check has passed.

The merged run.json keeps each shard's hosts: every measurement names its
shard and the machines that ran its server and its load tool, and hosts
lists them all (a host name used by two different machines becomes
name#2). Targets are in suite order; measurements come shard by shard. A
tool two shards report in different versions is noted under errors.

-partial merges what there is when shards are missing or unfinished; the
merged run is then "failed" and its errors say what is missing.

Examples:
  fairbench merge -out site/results /tmp/runs/*
  fairbench merge -out site/results a/20261129T185000Z-bench1 b/20261129T185200Z-bench2
  fairbench merge -partial -out /tmp/merged /tmp/runs/*`,
	run: runMerge,
}

func runMerge(e *env, args []string) error {
	fs := newFlags(e, "merge")
	out := fs.String("out", "site/results", "folder to write the merged run dir into")
	partial := fs.Bool("partial", false, "merge even when shards are missing or unfinished (the run is marked failed)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageErr("merge: give the run dir of every shard")
	}
	dir, err := collect.MergeWith(*out, fs.Args(), collect.MergeOptions{Partial: *partial})
	if err != nil {
		return usageErr("%w", err)
	}
	fmt.Fprintln(e.stdout, dir.Path)
	if m := dir.Manifest(); m.Status != runjson.StatusComplete {
		return failure(fmt.Errorf("merge: %s is %s: %d of %d shards merged", dir.Path, m.Status, len(m.Merged), shardCount(m)))
	}
	return nil
}

// shardCount is N of the shards a merged run was made of.
func shardCount(m runjson.Manifest) int {
	if len(m.Merged) == 0 {
		return 0
	}
	sh, _ := collect.ParseShard(m.Merged[0].Shard)
	return sh.N
}
