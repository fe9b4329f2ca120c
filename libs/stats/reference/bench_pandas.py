#!/usr/bin/env python3
"""Times pandas describe() + corr() on the data test/bench/profile.bench.ts profiles, for comparison.

Reading the CSV is not timed. Prints one JSON object per dataset, like the TypeScript benchmark: the median of
--rounds runs and the peak RSS during them (the kernel's high-water mark, reset after loading where Linux allows).

  npx tsx test/bench/profile.bench.ts  with BENCH_PROFILE_CSV=.tmp/bench/profile-generated.csv, then
  .cache/pyref/bin/python libs/stats/reference/bench_pandas.py --generated .tmp/bench/profile-generated.csv
"""
import argparse
import json
import re
import statistics
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[3]


def status_bytes(field):
    try:
        match = re.search(rf"^{field}:\s+(\d+) kB", Path("/proc/self/status").read_text(), re.M)
        return int(match.group(1)) * 1024 if match else None
    except OSError:
        return None


def reset_peak():
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def measure(bench, frame, rounds):
    data_bytes = status_bytes("VmRSS")
    peak_reset = reset_peak()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        frame.describe()
        frame.corr(numeric_only=True)
        times.append((time.perf_counter() - started) * 1000)
    print(json.dumps({
        "bench": bench,
        "rows": len(frame),
        "columns": len(frame.columns),
        "medianMs": round(statistics.median(times)),
        "roundsMs": [round(ms) for ms in times],
        "dataMiB": round(data_bytes / 2**20, 1) if data_bytes else None,
        "peakRssMiB": round(status_bytes("VmHWM") / 2**20, 1) if status_bytes("VmHWM") else None,
        "peakSinceData": peak_reset,
    }), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--generated", help="the CSV profile.bench.ts wrote (BENCH_PROFILE_CSV)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    read = lambda path: pd.read_csv(path, keep_default_na=False, na_values=["", "NA"])
    measure("pandas describe+corr diamonds", read(ROOT / "test/fixtures/datasets/diamonds.csv"), args.rounds)
    if args.generated:
        frame = read(args.generated)
        measure(f"pandas describe+corr generated {len(frame)} x {len(frame.columns)}", frame, args.rounds)


if __name__ == "__main__":
    main()
