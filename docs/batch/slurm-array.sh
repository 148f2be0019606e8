#!/bin/bash
# visage over a manifest of images as a Slurm job array: 8 tasks, each one shard.
#
# Slurm gives every task SLURM_ARRAY_TASK_ID, _MIN, _STEP and _COUNT; `--shard auto` takes shard
# (ID − MIN) / STEP of COUNT, so --array=1-8 or --array=0-14:2 work as well as 0-7, and prints which on
# stderr. Each task keeps the images whose path hashes (FNV-1a 64) to its shard.
#
# A failed image is an error record (exit 0); a requeued or rerun task skips the results it already
# wrote (--skip-existing), and results appear atomically, so a killed task never leaves a partial file.
#
#   find /data/photos -name '*.jpg' | sort > /data/manifest.txt
#   sbatch docs/batch/slurm-array.sh
#SBATCH --job-name=visage-detect
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=512M
#SBATCH --output=visage-%A_%a.log
set -euo pipefail

VISAGE=${VISAGE:-/opt/visage/bin/visage}
MANIFEST=${MANIFEST:-/data/manifest.txt}
RESULTS=${RESULTS:-/data/results}

exec "$VISAGE" detect --files-from "$MANIFEST" --shard auto \
    --output "$RESULTS" --skip-existing --on-error record --jobs "${SLURM_CPUS_PER_TASK:-1}"
