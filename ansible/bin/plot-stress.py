#!/usr/bin/env python3
"""Plots a stress.yml run: throughput and latency percentiles over time, one line per client.

usage: ansible/bin/plot-stress.py RUN_DIR [OUT.png]
RUN_DIR is results/ansible/<experiment>-<time>/ (one sub-directory per client, each with intervals.csv).
Needs matplotlib (pip install matplotlib). Writes RUN_DIR/throughput-latency.png by default.
"""
import csv
import sys
from pathlib import Path


def main() -> int:
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run_dir = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) == 3 else run_dir / "throughput-latency.png"
    files = sorted(run_dir.glob("*/intervals.csv"))
    if not files:
        print(f"plot-stress: no */intervals.csv under {run_dir}", file=sys.stderr)
        return 1

    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    fig, (ops_ax, lat_ax) = plt.subplots(2, 1, sharex=True, figsize=(9, 6))
    for f in files:
        with f.open() as fh:
            rows = list(csv.DictReader(fh))
        t = [float(r["time_s"]) for r in rows]
        client = f.parent.name
        ops_ax.plot(t, [float(r["ops_per_s"]) for r in rows], label=client)
        lat_ax.plot(t, [float(r["median_ms"]) for r in rows], label=f"{client} median")
        lat_ax.plot(t, [float(r["p99_ms"]) for r in rows], linestyle="--", label=f"{client} p99")
    ops_ax.set_ylabel("transactions/s")
    ops_ax.legend(loc="lower right", fontsize="small")
    lat_ax.set_ylabel("latency (ms)")
    lat_ax.set_xlabel("time (s)")
    lat_ax.legend(loc="upper right", fontsize="small")
    fig.suptitle(run_dir.name)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
