"""Reference values for src/eval/stats/*.test.ts, computed independently with scipy.

Run: python3 src/eval/stats/reference/compute-reference.py
Wilson and Clopper-Pearson come from scipy.stats.binomtest, the one-sided drop test from
scipy.stats.fisher_exact, Newcombe's method 10 is written out from his 1998 paper, and the
bootstraps replay the same mulberry32 stream with numpy's linear percentile (the two-level one
redraws a task's passes through scipy.stats.binom's CDF).
"""
import math
import numpy as np
from scipy.stats import binom, binomtest, fisher_exact

def wilson(n, c):
    ci = binomtest(c, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high

print("wilson")
for n, c in [(3, 0), (3, 3), (5, 1), (100, 50), (3, 2), (30, 27)]:
    low, high = wilson(n, c)
    print(f"  [{n}, {c}, {low:.10f}, {high:.10f}],")

print("clopper-pearson (for comparison only)")
for n, c in [(3, 0), (3, 3), (5, 1), (100, 50)]:
    ci = binomtest(c, n).proportion_ci(confidence_level=0.95, method="exact")
    print(f"  {n} {c} {ci.low:.4f} {ci.high:.4f}")

def newcombe(n1, c1, n2, c2):
    p1, p2 = c1 / n1, c2 / n2
    l1, u1 = wilson(n1, c1)
    l2, u2 = wilson(n2, c2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)

print("newcombe (after - before)")
for args in [(3, 0, 3, 3), (3, 3, 3, 2), (100, 50, 100, 60), (5, 1, 3, 3), (30, 27, 30, 20)]:
    d, low, high = newcombe(*args)
    print(f"  [{', '.join(map(str, args))}, {d:.10f}, {low:.10f}, {high:.10f}],")

print("fisher one-sided (after lower than before)")
def drop_p(nb, cb, na, ca):
    # rows: after, before; columns: pass, fail. alternative='less': odds of passing lower after.
    return fisher_exact([[ca, na - ca], [cb, nb - cb]], alternative="less").pvalue
for args in [(3, 3, 3, 2), (3, 3, 3, 0), (30, 27, 30, 20), (100, 50, 100, 40), (5, 5, 3, 1)]:
    print(f"  [{', '.join(map(str, args))}, {drop_p(*args):.10f}],")

print("trials to settle at alpha 0.05")
for nb, cb, na, ca in [(3, 3, 3, 2), (30, 27, 30, 20)]:
    before, after = cb / nb, ca / na
    # round half to even differs from JS Math.round only at .5; these rates never hit it
    for n in range(max(nb, na) + 1, 1001):
        if drop_p(n, int(math.floor(before * n + 0.5)), n, int(math.floor(after * n + 0.5))) <= 0.05:
            print(f"  {nb} {cb} {na} {ca} -> {n}")
            break

def mulberry32(seed):
    state = seed & 0xFFFFFFFF
    def imul(a, b):
        return (a * b) & 0xFFFFFFFF
    def next_value():
        nonlocal state
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        v = state
        v = imul(v ^ (v >> 15), v | 1)
        v ^= (v + imul(v ^ (v >> 7), v | 61)) & 0xFFFFFFFF
        return ((v ^ (v >> 14)) & 0xFFFFFFFF) / 4294967296
    return next_value

def bootstrap_mean(values, seed, resamples):
    rnd = mulberry32(seed)
    means = []
    for _ in range(resamples):
        total = 0.0
        for _ in range(len(values)):
            total += values[int(math.floor(rnd() * len(values)))]
        means.append(total / len(values))
    return np.percentile(means, 2.5), np.percentile(means, 97.5)

print("paired bootstrap: differences after - before, seed 7, 2000 resamples")
pairs = [(0, 1), (1, 1), (0, 1), (1 / 3, 1), (0, 2 / 3), (2 / 3, 1)]
diffs = [a - b for b, a in pairs]
low, high = bootstrap_mean(diffs, 7, 2000)
print(f"  mean {sum(diffs) / len(diffs):.10f} [{low:.10f}, {high:.10f}]")
print("mulberry32(1) first three:", [f"{x:.10f}" for x in (lambda r: [r(), r(), r()])(mulberry32(1))])


def wilson_score(rate, n, z=1.959963984540054):
    """Wilson written out, for an effective n that need not be whole."""
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = (z / (1 + z * z / n)) * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n))
    return (0.0 if rate == 0 else max(0.0, centre - half), 1.0 if rate == 1 else min(1.0, centre + half))

print("wilson written out agrees with scipy:", all(
    abs(a - b) < 1e-12 for n, c in [(3, 0), (3, 2), (30, 27), (9, 0)]
    for a, b in zip(wilson_score(c / n, n), wilson(n, c))))

def pooled(counts):
    rate = sum(c / n for n, c in counts) / len(counts)
    return rate, len(counts) ** 2 / sum(1 / n for n, _ in counts)

def two_level(tasks, scores, seed, resamples):
    """tasks: per task a list of arms (n, c); scores(arm index, n, c) -> value added."""
    rnd = mulberry32(seed)
    cdfs = [[np.append(binom.cdf(np.arange(n), n, c / n), 1.0) for n, c in arms] for arms in tasks]
    means = []
    for _ in range(resamples):
        total = 0.0
        for _ in range(len(tasks)):
            t = int(math.floor(rnd() * len(tasks)))
            for a, (n, _c) in enumerate(tasks[t]):
                drawn = int(np.searchsorted(cdfs[t][a], rnd(), side="right"))
                total += scores(a, n, drawn)
        means.append(total / len(tasks))
    return np.percentile(means, 2.5), np.percentile(means, 97.5)

print("paired two-level bootstrap, after - before, seed 7, 2000 resamples, and the pooled floor")
count_pairs = [((3, 0), (3, 3)), ((3, 3), (3, 3)), ((3, 0), (3, 3)), ((3, 1), (3, 3)),
               ((3, 0), (3, 2)), ((3, 2), (3, 3))]
low, high = two_level([list(p) for p in count_pairs],
                      lambda a, n, c: (c / n) if a == 1 else -(c / n), 7, 2000)
(rb, nb), (ra, na) = pooled([b for b, _ in count_pairs]), pooled([a for _, a in count_pairs])
lb, ub = wilson_score(rb, nb)
la, ua = wilson_score(ra, na)
d = ra - rb
floor = (max(-1, d - math.sqrt((ra - la) ** 2 + (ub - rb) ** 2)), min(1, d + math.sqrt((ua - ra) ** 2 + (rb - lb) ** 2)))
print(f"  mean {d:.10f} bootstrap [{low:.10f}, {high:.10f}] floor [{floor[0]:.10f}, {floor[1]:.10f}]")

print("suite pass@1 two-level bootstrap, seed 7, 2000 resamples, and the pooled floor (unequal n)")
suite = [(3, 1), (3, 3), (2, 0), (5, 4)]
low, high = two_level([[t] for t in suite], lambda a, n, c: c / n, 7, 2000)
rate, n_eff = pooled(suite)
print(f"  mean {rate:.10f} n_eff {n_eff:.10f} bootstrap [{low:.10f}, {high:.10f}] floor {tuple(round(x, 10) for x in wilson_score(rate, n_eff))}")

print("power of the one-sided Fisher test (exact, n per side)")
def power(n, p0, p1, a):
    total = 0.0
    for x in range(n + 1):
        for y in range(n + 1):
            p = fisher_exact([[x, n - x], [y, n - y]], alternative="greater").pvalue
            if p <= a + 1e-12:
                total += binom.pmf(x, n, p0) * binom.pmf(y, n, p1)
    return total
for args in [(3, 1, 0, 0.05), (3, 1, 0, 0.0025), (30, 0.9, 0.6, 0.05), (30, 1.0, 0.7, 0.0025),
             (10, 0.67, 0.09, 0.05), (10, 0.67, 0.08, 0.05), (20, 0.5, 0.1, 0.01),
             (66, 1.0, 0.9, 0.05), (65, 1.0, 0.9, 0.05)]:
    print(f"  [{', '.join(map(str, args))}, {power(*args):.10f}],")

print("trials per side for 80% power (issue 32 audit: compare.test.ts, power.test.ts)")
from scipy.stats import hypergeom
def fast_power(n, p0, p1, a):
    # critical passes per total, from the hypergeometric CDF (the one-sided Fisher p-value)
    crit = np.full(2 * n + 1, -1)
    for t in range(2 * n + 1):
        after = np.arange(max(0, t - n), min(n, t) + 1)
        ok = after[hypergeom.cdf(after, 2 * n, t, n) <= a + 1e-12]
        if len(ok):
            crit[t] = ok.max()
    before, after = np.arange(n + 1)[:, None], np.arange(n + 1)[None, :]
    return (binom.pmf(before, n, p0) * binom.pmf(after, n, p1) * (after <= crit[after + before])).sum()
def needed(p0, p1, a, start=1):
    return next(n for n in range(start, 1000) if fast_power(n, p0, p1, a) >= 0.8)
print(f"  1 -> 2/3 at 0.05/3: {needed(1, 2 / 3, 0.05 / 3)}; at 0.05: {needed(1, 2 / 3, 0.05)}")
print(f"  69/72 -> 69/72 - 0.1 at 0.05/24: {needed(69 / 72, 69 / 72 - 0.1, 0.05 / 24, 150)}")
