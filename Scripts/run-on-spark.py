#!/usr/bin/env python3
"""visage under PySpark: `RDD.pipe` over a folder of images, checked record for record against one process.

Each partition's paths go to one `visage detect --json --files-from -` child on its stdin; every
stdout line is one element back (Spark's pipe contract, the same as Hadoop Streaming). visage answers
each input line with exactly one line, in order, flushed at once, and a bad image with an error record
instead of a non-zero exit, so `checkCode=True` is safe: a non-zero exit means the whole run failed.
PySpark's pipe gives the child an empty environment and no shell, so the binary's path is absolute.

    apt-get install openjdk-17-jre-headless        # Spark 4 needs Java 17 or 21
    python3 -m venv .venv && .venv/bin/pip install pyspark Pillow
    Scripts/package.sh                              # .build/package/visage-linux-<arch>.tar.gz
    .venv/bin/python Scripts/run-on-spark.py [--folder DIR] [--partitions 4] [--tarball PATH | --visage PATH]

The packaged tarball is shipped as Spark ships any tool, `sc.addArchive("visage-linux-….tar.gz#visage")`
(`spark-submit --archives` on a cluster), and run from where Spark unpacked it. `--visage PATH` runs a
binary in place instead (local mode only: the executors share this machine).
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def images(folder):
    """Every image path below `folder`, absolute, sorted."""
    found = []
    for directory, _, names in os.walk(folder):
        found += [os.path.join(directory, n) for n in names if n.lower().endswith((".jpg", ".jpeg", ".png"))]
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", help="images to analyse (default: a folder made by make-batch-folder.py)")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--tarball", default=os.path.join(
        ROOT, ".build", "package", f"visage-linux-{os.uname().machine}.tar.gz"), help="Scripts/package.sh's archive")
    parser.add_argument("--visage", help="run this binary in place instead of the tarball")
    args = parser.parse_args()
    folder = os.path.abspath(args.folder or subprocess.run(
        [sys.executable, os.path.join(ROOT, "Scripts", "make-batch-folder.py")],
        check=True, capture_output=True, text=True).stdout.strip())
    paths = images(folder)

    from pyspark import SparkConf, SparkContext, SparkFiles
    conf = SparkConf().setMaster("local[2]").setAppName("visage-detect").set("spark.ui.enabled", "false")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        if args.visage:
            visage = os.path.abspath(args.visage)
        else:
            sc.addArchive(args.tarball + "#visage")
            visage = os.path.join(SparkFiles.getRootDirectory(), "visage", "bin", "visage")
        print(f"running {visage}")
        # The reference: one process over the folder, the same binary.
        single = subprocess.run([visage, "detect", "--json", "--recursive", "--on-error", "record", folder],
                                check=True, capture_output=True, text=True).stdout.splitlines()
        start = time.perf_counter()
        lines = sc.parallelize(paths, args.partitions).pipe(
            f"{visage} detect --json --files-from - --jobs 1", checkCode=True).collect()
        seconds = time.perf_counter() - start
    finally:
        sc.stop()

    records = [json.loads(line) for line in lines]
    by_image = {r["image"]: r for r in records}
    reference = {json.loads(line)["image"]: json.loads(line) for line in single}
    errors = sum("error" in r for r in records)
    print(f"{len(paths)} images, {args.partitions} partitions on local[2]: {len(records)} records "
          f"({errors} error records) in {seconds:.1f} s")
    ok = (len(records) == len(paths) and [r["image"] for r in records] == paths
          and by_image == reference and sorted(lines) == sorted(single))
    print("identical to the single-process run" if ok else "DIFFERENT from the single-process run")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
