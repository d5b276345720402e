#!/usr/bin/env bash
# Submits a sharded run as a Slurm job array and a merge job that starts when every shard is done:
#   scripts/slurm/submit.sh [SHARDS]        (default 16)
# Each array task runs shard.sbatch (one shard, one GPU); merge.sbatch then writes the whole run's
# result to results/estimate.json and results/batch.jsonl. Edit the commands in shard.sbatch.
set -euo pipefail
shards=${1:-16}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p results/shards
array=$(sbatch --parsable --array=0-$((shards - 1)) --export=ALL,SHARDS="$shards" "$here/shard.sbatch")
# afterany: a shard with unschedulable sets exits 0 anyway; an interrupted or failed shard makes
# merge say which one is missing or cut off.
sbatch --dependency=afterany:"$array" --export=ALL,SHARDS="$shards" "$here/merge.sbatch"
