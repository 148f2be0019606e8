#!/usr/bin/env bash
# visage under GNU parallel (Debian's `parallel`), both ways the engine runs a native tool, each checked
# record for record against one process over the same folder:
#   1. shards:  one job per shard, `--shard-index {} --shard-count N` (each job lists the folder itself);
#   2. a list:  `find | parallel --pipe -N 8` feeding batches of paths to `--files-from -`.
#
#   swift build -c release --product visage
#   Scripts/run-with-parallel.sh [FOLDER]     # default: a folder made by Scripts/make-batch-folder.py
# Environment: VISAGE (binary; default .build/release/visage), SHARDS (default 4), JOBS (parallel's -j, default 2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
visage=${VISAGE:-$root/.build/release/visage}
shards=${SHARDS:-4}
jobs=${JOBS:-2}
folder=${1:-$(python3 "$root/Scripts/make-batch-folder.py")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

"$visage" detect --json --recursive --on-error record --jobs 1 "$folder" > "$work/single.jsonl"
count=$(wc -l < "$work/single.jsonl")
echo "single process: $count records ($(grep -c '"error"' "$work/single.jsonl" || true) error records)"

# 1. Shards: every job lists the whole folder and keeps its own part; together they are the folder, once.
parallel -j "$jobs" --joblog "$work/shards.log" \
    "$visage" detect --json --recursive --on-error record --jobs 1 --shard-index {} --shard-count "$shards" "$folder" \
    ::: $(seq 0 $((shards - 1))) > "$work/shards.jsonl"
if cmp -s <(sort "$work/single.jsonl") <(sort "$work/shards.jsonl"); then
    echo "parallel, $shards shards: $(wc -l < "$work/shards.jsonl") records, identical"
else
    echo "parallel, $shards shards: records differ" >&2; exit 1
fi

# 2. A list through stdin: batches of 8 paths; --keep-order keeps the batches in order, visage the lines.
find "$folder" -type f \( -name '*.jpg' -o -name '*.png' \) | sort \
    | parallel -j "$jobs" --pipe -N 8 --keep-order "$visage" detect --json --files-from - --jobs 1 > "$work/piped.jsonl"
if cmp -s <(sort "$work/single.jsonl") <(sort "$work/piped.jsonl"); then
    echo "parallel --pipe -N 8: $(wc -l < "$work/piped.jsonl") records, identical"
else
    echo "parallel --pipe: records differ" >&2; exit 1
fi
