#!/usr/bin/env python3
"""Plots % of the streaming-read ceiling per case: reduce_tensor, CUB,
PyTorch eager and torch.compile, from the JSON that rt_bench (--json) and
compare_torch.py (--json, run with --bench-json) write. Output: docs/bench.png.

    python3 bench/plot.py --bench rt.json --torch torch.json [--out docs/bench.png]

Either input may be left out; cases missing from one simply lack those bars.
Only plot real measurements: the PNG under docs/ is what README shows.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(os.path.dirname(HERE), "docs", "bench.png")
SERIES = [("rt", "reduce_tensor", "#1f77b4"), ("cub", "CUB", "#7f7f7f"),
          ("eager", "PyTorch eager", "#ff7f0e"), ("compile", "torch.compile", "#2ca02c")]


def pct(nbytes, us, ceiling):
    return 100.0 * nbytes / (us * 1e3) / ceiling if us and ceiling else None


def collect(bench, torch):
    """[(case name, {series: % of ceiling})] in suite order, reduce cases only."""
    order, table = [], {}

    def slot(name):
        if name not in table:
            order.append(name)
            table[name] = {}
        return table[name]

    for c in (bench or {}).get("cases", []):
        if c.get("kind") != "reduce" or c.get("state") != "ok":
            continue
        row = slot(c["name"])
        nbytes = c["read_bytes"] + c["write_bytes"]
        row["rt"] = pct(nbytes, c.get("time_us"), c.get("ceiling_gbps"))
        row["cub"] = pct(nbytes, c.get("cub_us"), c.get("ceiling_gbps"))
    for c in (torch or {}).get("cases", []):
        if c.get("kind") != "reduce" or "pct_ceiling" not in c:
            continue
        row = slot(c["name"])
        for key in ("eager", "compile", "cub", "rt"):
            if c["pct_ceiling"].get(key) is not None and row.get(key) is None:
                row[key] = c["pct_ceiling"][key]
    return [(name, table[name]) for name in order]


def plot(rows, title, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [s for s in SERIES if any(r.get(s[0]) is not None for _, r in rows)]
    height = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(10, 0.1 * len(rows) * (1 + len(series)) + 1.5))
    for i, (key, label, color) in enumerate(series):
        ys = [n + i * height for n in range(len(rows))]
        xs = [r.get(key) or 0.0 for _, r in rows]
        ax.barh(ys, xs, height=height, label=label, color=color)
    ax.set_yticks([n + 0.4 - height / 2 for n in range(len(rows))])
    ax.set_yticklabels([name for name, _ in rows], fontsize=7)
    ax.set_ylim(len(rows) - 0.1, -0.3)  # top to bottom in suite order, no blank margins
    ax.axvline(100.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_xlabel("% of the streaming-read ceiling (bytes read + written / time)")
    # The legend above the bars, under the title: inside the axes it hid
    # the last cases' bars.
    ax.set_title(title, fontsize=9, pad=18)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(series), fontsize=8,
              frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bench", help="rt_bench --json output")
    p.add_argument("--torch", help="compare_torch.py --json output")
    p.add_argument("--out", default=DEFAULT_OUT, help="PNG to write (default docs/bench.png)")
    a = p.parse_args(argv)
    if not a.bench and not a.torch:
        p.error("give --bench, --torch or both")
    docs = []
    for path in (a.bench, a.torch):
        if path:
            with open(path) as f:
                docs.append(json.load(f))
        else:
            docs.append(None)
    rows = collect(*docs)
    if not rows:
        sys.exit("plot: no reduce case with a ceiling in the inputs")
    bench, torch = docs
    device = (bench or {}).get("device", {}).get("name") or (torch or {}).get("device", "?")
    title = "reduce_tensor %s, policy %s, on %s%s" % (
        (bench or {}).get("version", ""), (bench or torch).get("policy", "?"), device,
        ", torch %s" % torch["torch"] if torch else "")
    plot(rows, title, a.out)
    print("wrote %s (%d cases)" % (a.out, len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
