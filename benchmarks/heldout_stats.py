"""The statistics the held-out batches' independent solutions write out by hand (batch L on), once.

The solutions (``solve_independent.py``) answer with DuckDB queries and numpy; what a question asks
beyond SQL's aggregates is computed here from its formula, with no scipy, so a solution shares no
code with the label functions (which call pandas, numpy and scipy):

- fits and correlations: the least-squares fit by the normal equations (``least_squares``) and its
  R squared (``fit``), Pearson's correlation from centred sums (``pearson``) and the 1-based ranks
  with ties averaged that Spearman's correlation takes (``average_ranks``);
- test statistics: the one-way ANOVA F (``one_way_f``), Welch's t and its degrees of freedom
  (``welch``) and Pearson's chi-square of a table of counts (``chi_square``);
- their p-values: the regularised incomplete beta function (``incomplete_beta``, by Lentz's
  continued fraction) and the Student-t and F tails built on it (``t_two_sided``, ``f_upper``).

``heldout_common`` imports the first three under their old names, so a batch that imports them from
there keeps working. Nothing here keeps state.
"""

from __future__ import annotations

import math

import numpy as np


def least_squares(data: np.ndarray) -> np.ndarray:
    """Normal equations: column 0 of ``data`` is y, the others the regressors (an intercept is added
    and comes first). The solutions' own fit (batch L on); the labels fit with ``ols``."""
    y = data[:, 0]
    X = np.hstack([np.ones((len(y), 1)), data[:, 1:]])
    return np.linalg.solve(X.T @ X, X.T @ y)


def fit(data: np.ndarray) -> tuple[np.ndarray, float]:
    """``least_squares`` of column 0 of ``data`` on the others (coefficients, intercept first) and its
    R squared, one minus the residual sum of squares over the total sum of squares about y's mean."""
    coef = least_squares(data)
    y = data[:, 0]
    fitted = np.hstack([np.ones((len(y), 1)), data[:, 1:]]) @ coef
    return coef, float(1 - ((y - fitted) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def pearson(xy: np.ndarray) -> float:
    """Pearson correlation of the two columns of ``xy``, from centred sums (batch L on)."""
    x, y = xy[:, 0] - xy[:, 0].mean(), xy[:, 1] - xy[:, 1].mean()
    return float((x * y).sum() / math.sqrt((x * x).sum() * (y * y).sum()))


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of ``values``, tied values given the mean of the ranks they span (as Spearman's
    correlation ranks them)."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values))
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[order[j + 1]] == values[order[i]]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def one_way_f(groups: list[np.ndarray]) -> float:
    """One-way ANOVA F of ``groups``, from the between- and within-group sums of squares (batch L on)."""
    everything = np.concatenate(groups)
    between = sum(len(g) * (g.mean() - everything.mean()) ** 2 for g in groups)
    within = sum(((g - g.mean()) ** 2).sum() for g in groups)
    return (between / (len(groups) - 1)) / (within / (len(everything) - len(groups)))


def welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Welch's t of the mean of ``a`` minus the mean of ``b`` (sample variances, ddof 1) and its
    Welch-Satterthwaite degrees of freedom."""
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    t = (a.mean() - b.mean()) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return t, df


def chi_square(counts: np.ndarray) -> float:
    """Pearson's chi-square statistic of a contingency table of counts (rows by columns), from the
    expected counts row total x column total / grand total; no continuity correction."""
    expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / counts.sum()
    return float(((counts - expected) ** 2 / expected).sum())


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function I_x(a, b), evaluated by the modified
    Lentz method (Numerical Recipes' ``betacf``); it converges fast for x < (a + 1) / (a + b + 2)."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            return h
    raise ArithmeticError("the incomplete beta continued fraction did not converge")


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) for a, b > 0 (0 at x <= 0, 1 at x >= 1).

    The continued fraction ``_beta_fraction`` is used where it converges fast, directly below
    x = (a + 1) / (a + b + 2) and through I_x(a, b) = 1 - I_{1-x}(b, a) above it; the front factor
    x^a (1 - x)^b / B(a, b) is taken from log-gamma. The tails of Student's t, F and (even degrees of
    freedom aside) chi-square distributions are values of it.
    """
    if x <= 0.0 or x >= 1.0:
        return 0.0 if x <= 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| > |t|) for Student's t with ``df`` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2)."""
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def f_upper(f: float, d1: float, d2: float) -> float:
    """P(F > f) for the F distribution with (``d1``, ``d2``) degrees of freedom:
    I_{d2/(d2+d1 f)}(d2/2, d1/2)."""
    return incomplete_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f))
