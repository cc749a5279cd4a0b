#!/usr/bin/env python3
"""Plots the CSV files of bin/fastccs experiment (and the simulator's sim-rounds.csv) as PNGs beside them.

usage: plot_results.py [RESULTS_DIR]   (default: results)
Each figure shows every mode side by side; throughput plots also print FastCCS / cql (plain Cassandra) per point.
Older experiment CSVs call plain Cassandra through CQL "eventual" (and the replication arms
"eventual-one-rf1" ...); rows() reads them as "cql" ("cql-one-rf1" ...), since "eventual" is now the eventual protocol
on the FastCCS port (results/README.md).
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = {"fastccs": ("FastCCS", "tab:blue", "o"), "eiger": ("Eiger", "tab:red", "v"), "wren": ("Wren", "tab:purple", "D"),
         "eventual": ("eventual protocol", "tab:brown", "x"), "cql": ("Cassandra, CQL (CL ONE)", "tab:orange", "s"),
         "batch": ("logged batch", "tab:green", "^")}
TITLES = {
    "keys-per-read": ("Figure 4.2: throughput vs keys per read", "keys per read-only transaction"),
    "keys-per-write": ("Figure 4.3: throughput vs keys per write", "keys per write-only transaction"),
    "value-size": ("Figure 4.4: throughput vs value size", "value size (bytes)"),
    "write-fraction": ("Figure 4.5: throughput vs write fraction", "share of write-only transactions"),
    "partitions": ("Figure 4.7: throughput vs partitions per transaction", "partitions a transaction touches"),
    "threads": ("Saturation: throughput vs client threads", "client threads (closed loop)"),
}


def rows(path):
    with open(path, newline="") as f:
        data = list(csv.DictReader(f))
    # Compatibility: a file without any cql row is an older one, where mode "eventual" meant plain Cassandra; unless it
    # has Eiger or Wren rows, which came with the compared protocols (a sweep of the protocols alone, cpu-by-work.csv).
    legacy = not any(r.get("mode", "").startswith(("cql", "eiger", "wren")) for r in data)
    return [dict(r, mode=r["mode"].replace("eventual", "cql", 1)) if legacy and r.get("mode", "").startswith("eventual") else r for r in data]


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def plot_sweep(name, data, out_dir, setup):
    title, xlabel = TITLES[name]
    by = defaultdict(lambda: defaultdict(list))
    for r in data:
        by[r["mode"]][r["value"]].append(r)
    values = []
    for r in data:
        if r["value"] not in values:
            values.append(r["value"])
    xs = [float(v) for v in values]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for mode, (label, color, marker) in MODES.items():
        if mode not in by:
            continue
        ys = [mean([float(r["op_rate"]) for r in by[mode][v]]) for v in values]
        ax.plot(xs, ys, marker=marker, color=color, label=label)
        p99 = [mean([float(r["read_p99_ms"]) for r in by[mode][v]]) for v in values]
        ax2.plot(xs, p99, marker=marker, color=color, label=label + " read p99")
    if "fastccs" in by and "cql" in by:
        for x, v in zip(xs, values):
            f = mean([float(r["op_rate"]) for r in by["fastccs"][v]])
            e = mean([float(r["op_rate"]) for r in by["cql"][v]])
            if e > 0:
                ax.annotate(f"{f / e:.2f}x", (x, f), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    for a in (ax, ax2):
        a.set_xlabel(xlabel)
        if name in ("value-size", "threads"):
            a.set_xscale("log", base=2)
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    ax.set_ylabel("throughput (transactions/s)")
    ax.set_ylim(bottom=0)
    ax2.set_ylabel("read latency p99 (ms)")
    ax2.set_ylim(bottom=0)
    return finish(fig, title + " (labels: FastCCS / cql)", setup, os.path.join(out_dir, name + ".png"))


def finish(fig, title, setup, out, dpi=110, bottom=0.04):
    """Titles the figure, notes the setup at its foot and writes it to `out`."""
    fig.suptitle(title, fontsize=11)
    fig.text(0.01, bottom / 4, setup, fontsize=7, color="gray")
    fig.tight_layout(rect=(0, bottom, 1, 1 - (0.02 if bottom < 0.04 else 0)))
    fig.savefig(out, dpi=dpi)
    plt.close(fig)
    return out


def plot_skew(data, out_dir, setup):
    """Hot keys: per write fraction (columns), throughput, second-round reads, the share of stale key reads
    and how far behind the stale ones were (rows) against the Zipf parameter, a line per mode."""
    points = []
    for r in data:
        if r["value"] not in points:
            points.append(r["value"])
    fractions = sorted({p.split("/")[1] for p in points}, key=float)
    fig, axes = plt.subplots(4, len(fractions), figsize=(4.2 * len(fractions), 12.5), squeeze=False)
    panels = (("op_rate", "throughput (transactions/s)", "linear"), ("second_round_pct", "second-round reads (%)", "linear"),
              ("stale_read_pct", "stale key reads (%)", "linear"), ("staleness_p99_ms", "stale reads: p99 behind (ms)", "symlog"))
    for col, wf in enumerate(fractions):
        zipfs = sorted({p.split("/")[0] for p in points if p.split("/")[1] == wf}, key=float)
        for row, (column, label, scale) in enumerate(panels):
            ax = axes[row][col]
            for mode, (name, color, marker) in MODES.items():
                ys = [mean([float(r[column]) for r in data if r["mode"] == mode and r["value"] == f"{z}/{wf}"
                            and r.get(column) not in (None, "")]) for z in zipfs]
                if all(y != y for y in ys):
                    continue
                ax.plot([float(z) for z in zipfs], ys, marker=marker, color=color, label=name)
            ax.set_xlabel("Zipf parameter over 1,000 keys")
            ax.set_ylabel(label)
            if scale == "symlog":  # a few runs are seconds behind, most a few milliseconds
                ax.set_yscale("symlog", linthresh=10)
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            if row == 0:
                ax.set_title(f"write fraction {wf}", fontsize=10)
            if row == 0 and col == 0:
                ax.legend(fontsize=7)
    return finish(fig, "Hot keys: throughput, second rounds and staleness against skew", setup,
                  os.path.join(out_dir, "skew.png"), dpi=100, bottom=0.02)


def plot_cdf(data, out_dir, setup):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, op in zip(axes, ("read", "write")):
        for mode, (label, color, _) in MODES.items():
            pts = [(float(r["latency_ms"]), float(r["percentile"]) / 100) for r in data if r["mode"] == mode and r["op"] == op]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], color=color, label=label)
        ax.set_xscale("log")
        ax.set_xlabel(f"{op} latency (ms, log scale)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(("read-only" if op == "read" else "write-only") + " transactions", fontsize=10)
    axes[0].set_ylabel("cumulative fraction")
    return finish(fig, "Figure 4.1: latency CDF (Table 4.1 workload)", setup, os.path.join(out_dir, "latency-cdf.png"))


REPLICATION_ARMS = {"fastccs-rf1": ("FastCCS, RF=1", "tab:cyan"), "fastccs-rf3": ("FastCCS, RF=3", "tab:blue"),
                    "cql-one-rf1": ("Cassandra RF=1, CL ONE", "tab:gray"),
                    "cql-one-rf3": ("Cassandra RF=3, CL ONE", "tab:orange"),
                    "cql-quorum-rf3": ("Cassandra RF=3, CL QUORUM", "tab:red")}


def plot_replication(data, out_dir):
    """Grouped bars: per workload, each arm's throughput, read p99 and write p99 (means over repetitions)."""
    workloads = []
    for r in data:
        if r["value"] not in workloads:
            workloads.append(r["value"])
    arms = [a for a in REPLICATION_ARMS if any(r["mode"] == a for r in data)]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    panels = [(axes[0], "op_rate", "throughput (transactions/s)", "reads"), (axes[1], "read_p99_ms", "read p99 (ms)", "reads"),
              (axes[2], "write_p99_ms", "write p99 (ms)", "writes")]
    width = 0.8 / max(1, len(arms))
    for ax, col, ylabel, count in panels:
        for i, arm in enumerate(arms):
            label, color = REPLICATION_ARMS[arm]
            # a run without reads (the write-only workload) has no read latency: no bar rather than a bar at 0
            ys = [mean([float(r[col]) for r in data if r["value"] == w and r["mode"] == arm
                        and (col == "op_rate" or int(r[count]) > 0)]) for w in workloads]
            xs = [j + (i - (len(arms) - 1) / 2) * width for j in range(len(workloads))]
            ax.bar(xs, [0 if y != y else y for y in ys], width, color=color, label=label)
            if col != "op_rate" and i == len(arms) - 1:
                for j, y in enumerate(ys):
                    if y != y:
                        ax.annotate("no " + count, (j, 0), textcoords="offset points", xytext=(0, 10), ha="center", fontsize=8)
        ax.set_xticks(range(len(workloads)))
        ax.set_xticklabels([{"mixed": "Table 4.1\nmixed", "mixed-paced": "mixed, same\noffered load", "write": "write-only"}.get(w, w)
                            for w in workloads])
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3, axis="y")
    axes[0].legend(fontsize=8)
    fig.suptitle("Replication: FastCCS at RF=3 against RF=1, and against plain Cassandra at RF=1 and RF=3", fontsize=11)
    # its own setup line: two clusters, not the one cluster of setup.txt
    fig.text(0.01, 0.01, "one 2-core machine: two 3-node Cassandra 5.0.9 clusters (RF=1 and RF=3, FastCCS and plain Cassandra on each)"
             " + the client; same keys and threads per arm; means over repetitions", fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    out = os.path.join(out_dir, "replication.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_vs_partitions(groups, left, right, title, out, adjust=None):
    """Two panels against simulated partitions, a line per group (label, rows, plot style); left and right are
    (y label, value of a row); adjust(axes) may change the axes before the figure is saved."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, group, style in groups:
        group = sorted(group, key=lambda r: int(r["partitions"]))
        xs = [int(r["partitions"]) for r in group]
        for a, (_, value) in zip(axes, (left, right)):
            a.plot(xs, [value(r) for r in group], label=label, **style)
    for a, (ylabel, _) in zip(axes, (left, right)):
        a.set_xscale("log", base=2)
        a.set_xlabel("partitions (simulated)")
        a.set_ylabel(ylabel)
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    if adjust:
        adjust(axes)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_sim_rounds(data, out_dir):
    by = defaultdict(list)
    for r in data:
        by[r["write_fraction"]].append(r)
    return plot_vs_partitions(
        [(f"write fraction {wf}", rs, {"marker": "o"}) for wf, rs in sorted(by.items())],
        ("second-round reads (%)", lambda r: 100 * float(r["second_round_share"])),
        ("throughput (transactions/s, simulated)", lambda r: float(r["throughput_txn_per_s"])),
        "Figures 4.6/4.8 on the simulator (beyond this machine): second rounds and throughput vs partitions",
        os.path.join(out_dir, "sim-rounds.png"))


PROTOCOLS = {"fastccs": ("FastCCS", "tab:blue", "o"), "eiger": ("Eiger", "tab:red", "v"),
             "wren": ("Wren", "tab:purple", "D"), "eventual": ("eventual", "tab:orange", "s")}


def plot_sim_protocols(data, out_dir):
    """Figure 4.8(b) with every protocol: rounds per read and metadata per transaction against partitions."""
    by = defaultdict(list)
    for r in data:
        by[r["protocol"]].append(r)
    groups = []
    for proto, rs in by.items():
        label, color, marker = PROTOCOLS.get(proto, (proto, None, "x"))
        groups.append((label, rs, {"marker": marker, "color": color}))

    def adjust(axes):
        axes[0].set_ylim(bottom=0)
        axes[1].set_yscale("log")

    wfs = sorted({r["write_fraction"] for r in data})
    return plot_vs_partitions(
        groups,
        ("client rounds per read-only transaction", lambda r: float(r["rounds_per_read"])),
        ("metadata bytes per transaction", lambda r: float(r["metadata_bytes_per_txn"])),
        "Figure 4.8(b) on the simulator, every protocol: rounds per read and metadata vs partitions"
        " (write fraction " + ", ".join(wfs) + ")",
        os.path.join(out_dir, "sim-protocols.png"), adjust)


def plot_soak(path, out_dir):
    data = rows(path)
    by = defaultdict(list)
    for r in data:
        by[float(r["elapsed_s"])].append(r)
    ts = sorted(by)
    mins = [t / 60 for t in ts]
    fig, axes = plt.subplots(2, 2, figsize=(11, 6.5), sharex=True)
    series = [
        (axes[0][0], "throughput (transactions/s)", [float(by[t][0]["txn_per_s"]) for t in ts]),
        (axes[0][1], "stored version rows (all nodes)", [sum(int(r["version_rows"]) for r in by[t]) for t in ts]),
        (axes[1][0], "heap used, sampled (MiB, all nodes)", [sum(float(r["heap_used_mib"]) for r in by[t]) for t in ts]),
        (axes[1][1], "versions table on disk (KiB, all nodes)", [sum(int(r["versions_disk_kib"]) for r in by[t]) for t in ts]),
    ]
    for ax, label, ys in series:
        ax.plot(mins, ys, color="tab:blue")
        ax.set_ylabel(label, fontsize=9)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("minutes")
    phases = [float(by[t][0].get("write_fraction") or "nan") for t in ts]
    for i in range(1, len(ts)):
        if phases[i] != phases[i - 1]:
            for ax, _, _ in series:
                ax.axvline(mins[i], color="gray", linestyle="--", linewidth=0.8)
    fig.suptitle(f"Soak ({os.path.basename(path)}): write-heavy then read-heavy; versions collected as they age", fontsize=11)
    fig.tight_layout()
    out = os.path.join(out_dir, os.path.splitext(os.path.basename(path))[0] + ".png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def summary_tables(out_dir):
    """Markdown tables, one per experiment CSV: each mode's mean per point, and FastCCS's throughput over every other
    mode's (over same-host eventual: the cost of TCC; over cql: against plain Cassandra)."""
    lines = []
    for name in list(TITLES) + ["latency", "write-batch", "skew"]:
        path = os.path.join(out_dir, name + ".csv")
        if not os.path.exists(path):
            continue
        data = rows(path)
        values = []
        for r in data:
            if r["value"] not in values:
                values.append(r["value"])
        modes = [m for m in MODES if any(r["mode"] == m for r in data)]
        others = [m for m in modes if m != "fastccs"]
        rounds = [m for m in modes if m in ("fastccs", "eiger", "wren")]
        lines.append(f"### {name}" + (f" (figure {data[0]['figure']})" if data[0]["figure"] != "-" else ""))
        lines.append("")
        head = ["value"] + [f"{m} op/s" for m in modes] + [f"fastccs/{m}" for m in others] \
            + [f"{m} read p99 ms" for m in modes] + [f"{m} write p99 ms" for m in modes] \
            + [f"{m} 2nd-round reads" for m in rounds] + [f"{m} node CPU us/op" for m in modes] \
            + ([f"{m} stale key reads" for m in modes] if "stale_read_pct" in data[0] else [])
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for v in values:
            def m(mode, col):
                xs = [float(r[col]) for r in data if r["value"] == v and r["mode"] == mode and r.get(col) not in (None, "", "NaN")]
                return mean(xs)
            f_rate = m("fastccs", "op_rate")
            cells = [v] + [f"{m(x, 'op_rate'):,.0f}" for x in modes] \
                + [f"{f_rate / m(x, 'op_rate'):.2f}" if m(x, "op_rate") else "-" for x in others] \
                + [f"{m(x, 'read_p99_ms'):.1f}" for x in modes] + [f"{m(x, 'write_p99_ms'):.1f}" for x in modes] \
                + [f"{m(x, 'second_round_pct'):.3f}%" for x in rounds] \
                + [f"{m(x, 'node_cpu_us_per_op'):.0f}" if "node_cpu_us_per_op" in data[0] else "-" for x in modes] \
                + ([f"{m(x, 'stale_read_pct'):.3f}% (p99 {m(x, 'staleness_p99_ms'):.1f} ms)" for x in modes] if "stale_read_pct" in data[0] else [])
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    if lines:
        out = os.path.join(out_dir, "experiments-summary.md")
        with open(out, "w") as f:
            f.write("# Experiment summary (generated by bin/fastccs plot from the CSV files beside it)\n\n" + "\n".join(lines))
        return out
    return None


def _num(r, column):
    v = r.get(column)
    return float(v) if v not in (None, "") else float("nan")


def plot_claret(data, out_dir, setup):
    """Claret's raw mix: per add share (columns), throughput and lost adds against the Zipf parameter."""
    points = []
    for r in data:
        if r["value"] not in points:
            points.append(r["value"])
    shares = sorted({p.split("/")[1] for p in points}, key=float)
    fig, axes = plt.subplots(2, len(shares), figsize=(4.6 * len(shares), 7.5), squeeze=False)
    for col, share in enumerate(shares):
        zipfs = sorted({p.split("/")[0] for p in points if p.split("/")[1] == share}, key=float)
        for row, (column, label) in enumerate((("op_rate", "throughput (transactions/s)"),
                                                ("lost_pct", "lost set adds (% of acknowledged)"))):
            ax = axes[row][col]
            for mode, (name, color, marker) in MODES.items():
                ys = [mean([_num(r, column) for r in data if r["mode"] == mode and r["value"] == f"{z}/{share}"]) for z in zipfs]
                if all(y != y for y in ys):
                    continue
                ax.plot([float(z) for z in zipfs], ys, marker=marker, color=color, label=name)
            ax.set_xlabel("Zipf parameter over 10,000 sets")
            ax.set_ylabel(label)
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            if row == 0:
                ax.set_title(f"add transactions {share}", fontsize=10)
                if col == 0:
                    ax.legend(fontsize=7)
    return finish(fig, "Claret's raw mix: set adds that commute (FastCCS) against read-then-write", setup,
                  os.path.join(out_dir, "claret.png"), dpi=100, bottom=0.03)


def plot_bars(data, out_dir, setup, name, title, lost_column, lost_label):
    """One bar per point (mode, or operation/mode), mean over repetitions: throughput, and lost updates above it."""
    points = []
    for r in data:
        if r["value"] not in points:
            points.append(r["value"])
    labels = [p if p != "default" else "" for p in points]
    if all(label == "" for label in labels):
        points = []
        for r in data:
            if r["mode"] not in points:
                points.append(r["mode"])
        key = "mode"
    else:
        key = "value"
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(points)), 4.4))
    for i, p in enumerate(points):
        rs = [r for r in data if r[key] == p]
        mode = rs[0]["mode"]
        y = mean([_num(r, "op_rate") for r in rs])
        ax.bar(i, y, color=MODES.get(mode, (mode, "gray", "o"))[1])
        lost = mean([_num(r, lost_column) for r in rs])
        text = f"lost {lost:.1f}%" if lost == lost else "-"
        ax.annotate(text, (i, y), textcoords="offset points", xytext=(0, 4), ha="center", fontsize=8)
    ax.set_xticks(range(len(points)))
    ax.set_xticklabels(points, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("throughput (transactions/s)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3, axis="y")
    return finish(fig, f"{title} (labels: {lost_label})", setup, os.path.join(out_dir, name + ".png"), bottom=0.05)


WORK = [("node_io_us_per_op", "nodes: Netty I/O", "tab:gray"), ("node_serve_us_per_op", "nodes: protocol / request threads", "tab:blue"),
        ("node_storage_us_per_op", "nodes: storage", "tab:green"), ("node_jvm_us_per_op", "nodes: GC and JIT", "tab:olive"),
        ("node_other_us_per_op", "nodes: other", "tab:cyan"), ("client_cpu_us_per_op", "client", "tab:pink")]


def plot_cpu_by_work(data, out_dir, setup):
    """CPU per transaction by what the threads do, a stacked bar per mode, a panel per write fraction."""
    points = []
    for r in data:
        if r["value"] not in points:
            points.append(r["value"])
    fig, axes = plt.subplots(1, len(points), figsize=(4.2 * len(points), 4.6), squeeze=False)
    for ax, p in zip(axes[0], points):
        modes = [m for m in MODES if any(r["mode"] == m and r["value"] == p for r in data)]
        for i, mode in enumerate(modes):
            rs = [r for r in data if r["value"] == p and r["mode"] == mode]
            bottom = 0.0
            for column, label, color in WORK:
                y = mean([_num(r, column) for r in rs])
                ax.bar(i, y, bottom=bottom, color=color, label=label if i == 0 else None)
                bottom += y
            rate = mean([_num(r, "op_rate") for r in rs])
            ax.annotate(f"{rate:,.0f}/s", (i, bottom), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=8)
        ax.set_xticks(range(len(modes)))
        ax.set_xticklabels([MODES[m][0] for m in modes], rotation=20, ha="right", fontsize=8)
        ax.set_title(f"write fraction {p}", fontsize=10)
        ax.set_ylabel("CPU per transaction (us)")
        ax.grid(alpha=0.3, axis="y")
    axes[0][-1].legend(fontsize=7, loc="upper right")
    return finish(fig, "Where the CPU goes: nodes by thread and client, per transaction (labels: throughput)", setup,
                  os.path.join(out_dir, "cpu-by-work.png"), bottom=0.05)


def retwis_lost_pct(data):
    """Retwis rows with the lost timeline entries as a share of the acknowledged ones."""
    out = []
    for r in data:
        adds = _num(r, "timeline_adds")
        out.append(dict(r, lost_pct=str(100.0 * _num(r, "lost_timeline") / adds) if adds > 0 else ""))
    return out


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "results"
    setup = "one 2-core machine: 3 Cassandra 5.0.9 nodes + the client; same cluster, keys and threads per mode"
    setup_file = os.path.join(out_dir, "setup.txt")
    if os.path.exists(setup_file):
        setup = open(setup_file).read().strip()
    made = []
    for name in TITLES:
        path = os.path.join(out_dir, name + ".csv")
        if os.path.exists(path):
            made.append(plot_sweep(name, rows(path), out_dir, setup))
    if os.path.exists(os.path.join(out_dir, "skew.csv")):
        made.append(plot_skew(rows(os.path.join(out_dir, "skew.csv")), out_dir, setup))
    if os.path.exists(os.path.join(out_dir, "latency-cdf.csv")):
        made.append(plot_cdf(rows(os.path.join(out_dir, "latency-cdf.csv")), out_dir, setup))
    if os.path.exists(os.path.join(out_dir, "replication.csv")):
        made.append(plot_replication(rows(os.path.join(out_dir, "replication.csv")), out_dir))
    if os.path.exists(os.path.join(out_dir, "sim-rounds.csv")):
        made.append(plot_sim_rounds(rows(os.path.join(out_dir, "sim-rounds.csv")), out_dir))
    if os.path.exists(os.path.join(out_dir, "sim-protocols.csv")):
        made.append(plot_sim_protocols(rows(os.path.join(out_dir, "sim-protocols.csv")), out_dir))
    if os.path.exists(os.path.join(out_dir, "claret.csv")):
        made.append(plot_claret(rows(os.path.join(out_dir, "claret.csv")), out_dir, setup))
    if os.path.exists(os.path.join(out_dir, "hot-counter.csv")):
        made.append(plot_bars(rows(os.path.join(out_dir, "hot-counter.csv")), out_dir, setup, "hot-counter",
                              "One hot counter, 64 threads: add, blind put, read-then-write", "lost_pct",
                              "lost updates"))
    if os.path.exists(os.path.join(out_dir, "retwis.csv")):
        made.append(plot_bars(retwis_lost_pct(rows(os.path.join(out_dir, "retwis.csv"))), out_dir, setup, "retwis",
                              "Retwis, every mode", "lost_pct", "lost timeline entries"))
    if os.path.exists(os.path.join(out_dir, "cpu-by-work.csv")):
        made.append(plot_cpu_by_work(rows(os.path.join(out_dir, "cpu-by-work.csv")), out_dir, setup))
    summary = summary_tables(out_dir)
    if summary:
        made.append(summary)
    soak = os.path.join(out_dir, "soak-30min.csv")
    if os.path.exists(soak):
        made.append(plot_soak(soak, out_dir))
    for m in made:
        print("wrote", m)
    if not made:
        print("no experiment CSV in", out_dir, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
