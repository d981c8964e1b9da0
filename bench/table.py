#!/usr/bin/env python3
"""Prints the benchmark table from the RESULT lines of driver and peers.py.

  table.py RESULTS [--plot out.png] [--note TEXT]...

One row per (case, variant, threads): the limit in GB/s (copies: the better
of memcpy and a streaming-store copy; reductions: a vectorized read-sum),
then per implementation "GB/s ratio" (ratio = GB/s / limit, both with the
same thread count). "dyn/st": the dynamic kernel's bandwidth over the
static one's, measured side by side (targets: 0.9 at full sizes, 0.8 at
small and odd sizes). "tuned/st" (bench.sh --tuned): the kernel planned
with a tuning file over the default plan's. Markers: `*` noisy (max/min of the timed runs > 1.25,
ranges listed below the table), `!MISMATCH` a wrong result (listed below).
"""
import argparse
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402

IMPLS = [("layoutc", "layoutc"), ("layoutc_dyn", "layoutc dyn"),
         ("layoutc_tuned", "layoutc tuned"), ("naive", "naive C++"), ("halide", "Halide"),
         ("numpy", "NumPy(1T)"), ("torch_out", "torch copy_"),
         ("torch", "torch alloc")]
NOISY = 1.25
# Columns of layoutc's other kernels over its static default ones.
VERSUS = {"layoutc_dyn": "dyn/st", "layoutc_tuned": "tuned/st"}
TUNED_TITLE = "Tuned vs default plans (tuned/st)"


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) != 11 or p[0] != "RESULT":
                continue
            _, cid, var, T, impl, med, lo, hi, runs, nbytes, status = p
            rows[(cid, var, int(T), impl)] = dict(
                med=float(med), lo=float(lo), hi=float(hi), runs=int(runs),
                bytes=int(nbytes), status=status)
    return rows


def gbs(r):
    return r["bytes"] / r["med"] / 1e9 if r["med"] > 0 else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--plot")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--baseline", action="store_true",
                    help="the tuned column holds another layoutc's default "
                         "plans (bench.sh --baseline)")
    a = ap.parse_args()
    if a.baseline:
        relabel_baseline()
    rows = load(a.results)
    order = {c["id"]: i for i, c in enumerate(cases.ALL)}
    vorder = {"full": 0, "quick": 0, "small": 1, "odd": 2}
    keys = sorted({(k[0], k[1], k[2]) for k in rows},
                  key=lambda k: (order.get(k[0], 99), vorder.get(k[1], 9),
                                 k[2]))
    shapes = {c["id"]: c["shapes"] for c in cases.ALL}
    # Columns of the implementations this run measured (the HPTT-style
    # suite runs layoutc alone; the notes say what is missing); layoutc's
    # always, whose n/a cells say why it did not run.
    impls = [(i, h) for i, h in IMPLS
             if i == "layoutc" or
             any(k[3] == i and not r["status"].startswith("n/a")
                 for k, r in rows.items())]
    # Columns of layoutc's other kernels over its static default ones.
    versus = [(i, col) for i, col in VERSUS.items()
              if any(j == i for j, _ in impls)]

    head = (["case", "size", "T", "limit GB/s"] + [h for _, h in impls] +
            [col for _, col in versus])
    # impl -> [(case, var, T, its bandwidth / the static kernel's)]
    against = collections.defaultdict(list)
    table, noisy, bad = [], [], []
    ratios = collections.defaultdict(dict)  # (case, var, T) -> impl -> ratio
    for cid, var, T in keys:
        get = lambda impl: rows.get((cid, var, T, impl))
        if get("readsum"):
            lim = gbs(get("readsum"))
            limtxt = f"{lim:.1f} rd"
        else:
            m, s = get("memcpy"), get("stream")
            cands = [(gbs(r), n) for r, n in ((m, "mc"), (s, "nt")) if r]
            lim, which = max(cands) if cands else (0.0, "")
            limtxt = f"{lim:.1f} {which}"
        shape = "x".join(map(str, shapes.get(cid, {}).get(var, [])))
        line = [cid, f"{var} {shape}", str(T), limtxt]
        for impl, label in impls:
            r = get(impl)
            if r is None:
                line.append("-")
                continue
            st = r["status"]
            if st.startswith("n/a"):
                reason = st[4:].strip()
                if impl.startswith("layoutc"):
                    line.append(f"n/a ({reason})")
                elif impl == "numpy" and T != 1:
                    line.append("(1T only)")
                else:
                    line.append("n/a")
                continue
            if st.startswith("error"):
                line.append("ERROR")
                bad.append(f"{cid} {var} T={T} {label}: {st}")
                continue
            v = gbs(r)
            ratio = v / lim if lim > 0 else 0.0
            ratios[(cid, var, T)][impl] = ratio
            cell = f"{v:6.1f} {ratio:4.2f}"
            if r["lo"] > 0 and r["hi"] / r["lo"] > NOISY:
                cell += "*"
                noisy.append(f"{cid} {var} T={T} {label}: "
                             f"{r['bytes'] / r['hi'] / 1e9:.1f}-"
                             f"{r['bytes'] / r['lo'] / 1e9:.1f} GB/s over "
                             f"{r['runs']} runs")
            if st != "ok":
                cell += " !MISMATCH"
                bad.append(f"{cid} {var} T={T} {label}: {st}")
            line.append(cell)
        st = get("layoutc")
        for impl, _ in versus:
            other = get(impl)
            if st and other and st["status"] == "ok" and \
                    other["status"] == "ok" and gbs(st) > 0:
                against[impl].append((cid, var, T, gbs(other) / gbs(st)))
                line.append(f"{against[impl][-1][3]:.2f}")
            else:
                line.append("-")
        table.append(line)

    widths = [max(len(str(r[i])) for r in [head] + table)
              for i in range(len(head))]
    fmt = lambda r: "  ".join(str(c).ljust(w) if i < 3 else str(c).rjust(w)
                              for i, (c, w) in enumerate(zip(r, widths)))
    print("Effective bandwidth GB/s (bytes read + written / median time; "
          "reductions: bytes read) and ratio to the limit with the same "
          "thread count T.")
    print("limit: copies the better of memcpy (mc) and a streaming-store "
          "copy (nt) of the same total bytes; reductions a read-sum (rd). "
          "NumPy is single-threaded.")
    for n in a.note:
        print(n)
    print()
    print(fmt(head))
    print(fmt(["-" * w for w in widths]))
    prev = None
    for line in table:
        if prev and prev != line[0]:
            print()
        prev = line[0]
        print(fmt(line))
    if bad:
        print("\n!!! WRONG RESULTS OR ERRORS (verified against the serial "
              "naive loop nest):")
        for b in bad:
            print("  " + b)
    else:
        print("\nAll verified results match the serial naive loop nest "
              "(copies bit-exact, sums within tolerance).")
    if noisy:
        print(f"\n* noisy (slowest/fastest run > {NOISY}): min-max")
        for n in noisy:
            print("  " + n)
    if against["layoutc_dyn"]:
        dynamic_summary(against["layoutc_dyn"])
    if against["layoutc_tuned"]:
        tuned_summary(against["layoutc_tuned"])
    hptt = {c["id"]: len(c["shapes"]["full"]) for c in cases.HPTT}
    if any(k[0] in hptt for k in ratios):
        rank_summary(ratios, hptt, "layoutc")
        if against["layoutc_tuned"]:
            rank_summary(ratios, hptt, "layoutc_tuned")

    if a.plot:
        plot(a.plot, ratios)


def dynamic_summary(dyn):
    """Geomeans of dyn/st per size and thread count, and the cells below
    target (0.9 at full or quick sizes, 0.8 at small and odd sizes)."""
    print("\nDynamic vs static kernels (dyn/st), geomean:")
    groups = collections.defaultdict(list)
    for cid, var, T, r in dyn:
        groups[(var, T)].append(r)
    for (var, T), rs in sorted(groups.items()):
        g = math.exp(sum(math.log(r) for r in rs) / len(rs))
        print(f"  {var} T={T}: {g:.2f} over {len(rs)} cases")
    low = [f"{cid} {var} T={T}: {r:.2f}" for cid, var, T, r in dyn
           if r < (0.9 if var in ("full", "quick") else 0.8)]
    print("Below target (0.9 full, 0.8 small and odd): " +
          (", ".join(low) if low else "none"))


def geomean(rs):
    return math.exp(sum(math.log(r) for r in rs) / len(rs))


def relabel_baseline():
    """bench.sh --baseline: the tuned column is another binary's plans."""
    global IMPLS, VERSUS, TUNED_TITLE
    IMPLS = [(i, "layoutc base" if i == "layoutc_tuned" else h)
             for i, h in IMPLS]
    VERSUS = dict(VERSUS, layoutc_tuned="base/st")
    TUNED_TITLE = "Baseline vs default plans (base/st)"


def tuned_summary(tuned):
    """Geomeans of tuned/st (or base/st) per size and thread count, and the
    cells where the tuned plan (the default) was more than 3% slower
    (noise, or a plan tuned at another thread count)."""
    print(f"\n{TUNED_TITLE}, geomean:")
    groups = collections.defaultdict(list)
    for cid, var, T, r in tuned:
        groups[(var, T)].append(r)
    for (var, T), rs in sorted(groups.items()):
        print(f"  {var} T={T}: {geomean(rs):.2f} over {len(rs)} cases")
    # The cells where the plans under test (tuned, or the default against a
    # baseline) were more than 3% slower.
    base = VERSUS["layoutc_tuned"] == "base/st"
    low = [f"{cid} {var} T={T}: {r:.2f}" for cid, var, T, r in tuned
           if (r > 1.03 if base else r < 0.97)]
    print(("Default slower than the baseline" if base else
           "Tuned slower than default") + " by more than 3%: " +
          (", ".join(low) if low else "none"))


def rank_summary(ratios, rank_of, impl):
    """The HPTT-style suite by rank class: `impl`'s ratio to the copy limit,
    geomean and worst case, per thread count (issue target: no class's
    geomean below 0.6)."""
    label = dict(IMPLS)[impl]
    print(f"\nHPTT-style suite, {label} / copy limit by rank:")
    threads = sorted({k[2] for k in ratios if k[0] in rank_of})
    for T in threads:
        groups = collections.defaultdict(list)
        for (cid, var, t), d in ratios.items():
            if t == T and cid in rank_of and impl in d:
                groups[rank_of[cid]].append((d[impl], cid))
        every = [r for rs in groups.values() for r, _ in rs]
        parts = []
        for rank, rs in sorted(groups.items()):
            g = math.exp(sum(math.log(r) for r, _ in rs) / len(rs))
            worst = min(rs)
            parts.append(f"{rank}-D {g:.2f} (n={len(rs)}, worst "
                         f"{worst[1]} {worst[0]:.2f})")
        if every:
            g = math.exp(sum(math.log(r) for r in every) / len(every))
            print(f"  T={T}: " + "; ".join(parts) + f"; all {g:.2f}")


def plot(path, ratios):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"--plot: matplotlib missing (scripts/install-bench-deps.sh); "
              f"no {path}", file=sys.stderr)
        return
    threads = sorted({k[2] for k in ratios})
    big = [v for v in ("full", "quick") if any(k[1] == v for k in ratios)]
    var = big[0] if big else "small"
    ids = [c["id"] for c in cases.ALL
           if any(k[0] == c["id"] and k[1] == var for k in ratios)]
    fig, axes = plt.subplots(len(threads), 1, figsize=(14, 4 * len(threads)),
                             squeeze=False)
    w = 0.8 / len(IMPLS)
    for ax, T in zip(axes[:, 0], threads):
        for j, (impl, label) in enumerate(IMPLS):
            ys = [ratios.get((cid, var, T), {}).get(impl, 0) for cid in ids]
            ax.bar([i + j * w for i in range(len(ids))], ys, w, label=label)
        ax.set_xticks([i + 0.4 - w / 2 for i in range(len(ids))])
        ax.set_xticklabels(ids)
        ax.axhline(1.0, color="k", lw=0.8)
        top = max([r for k, d in ratios.items() if k[1] == var and k[2] == T
                   for r in d.values()] + [1.0])
        ax.set_ylim(0, min(top * 1.1, 2.0))
        ax.set_ylabel("fraction of limit")
        ax.set_title(f"{var} sizes, {T} thread(s)")
        ax.legend(ncol=len(IMPLS), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"\nplot: {path}")


if __name__ == "__main__":
    main()
