#!/usr/bin/env python3
"""Reference numbers for @synth/stats, computed with pandas (>= 3), numpy and scipy.

Reads the shared CSV fixtures the way libs/stats/src/testing/profileInputFromCsv.ts does ("" and "NA" are missing,
numbers parsed exactly) and writes libs/stats/test/fixtures/<dataset>.reference.json. See README.md.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats.contingency import association

ROOT = Path(__file__).resolve().parents[3]
DATASETS = ROOT / "test" / "fixtures" / "datasets"
OUT = ROOT / "libs" / "stats" / "test" / "fixtures"
NAMES = ["diamonds", "telco_churn", "credit_data", "penguins"]
QUANTILES = {"p01": 0.01, "p05": 0.05, "p25": 0.25, "p50": 0.5, "p75": 0.75, "p95": 0.95, "p99": 0.99}
MAX_BINS = 50
TOP_K = 10


def number(value):
    """JSON has no NaN: a statistic that does not exist is null, as in the TypeScript profile."""
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def read(path):
    # Only "" and "NA" are missing, as in the TypeScript reader. pandas 3 parses numbers to the correctly rounded
    # double, as JavaScript's Number() does (pandas 2 needed float_precision="round_trip").
    return pd.read_csv(path, keep_default_na=False, na_values=["", "NA"])


def bin_count(n, lo, hi, iqr):
    """Freedman–Diaconis capped to [1, 50], Sturges when the IQR is 0: the rule histogramBinCount implements."""
    if n == 0 or hi == lo:
        return 1
    bins = math.ceil((hi - lo) / (2 * iqr * n ** (-1 / 3))) if iqr > 0 else math.ceil(math.log2(n)) + 1
    return min(max(bins, 1), MAX_BINS)


def numeric_column(series):
    present = series.dropna().to_numpy(dtype=np.float64)
    n = len(present)
    quantiles = {key: number(series.quantile(q)) for key, q in QUANTILES.items()}
    q1, q3 = series.quantile(0.25), series.quantile(0.75)
    iqr = q3 - q1
    lower, upper = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    outside = ((series < lower) | (series > upper)).to_numpy()
    counts, edges = np.histogram(present, bins=bin_count(n, present.min(), present.max(), iqr))
    return {
        "kind": "numeric",
        "count": int(n),
        "missing_count": int(series.isna().sum()),
        "unique_count": int(series.nunique()),
        "min": number(series.min()),
        "max": number(series.max()),
        "mean": number(series.mean()),
        "std": number(series.std()),
        "median": number(series.median()),
        "quantiles": quantiles,
        "skewness": number(series.skew()),
        "kurtosis": number(series.kurt()),
        "zeros_count": int((series == 0).sum()),
        "histogram": {"bin_edges": [float(edge) for edge in edges], "counts": [int(count) for count in counts]},
        "outliers": {
            "lower_bound": float(lower),
            "upper_bound": float(upper),
            "count": int(outside.sum()),
            "share": float(outside.sum() / n),
            "sample_row_indices": [int(index) for index in np.flatnonzero(outside)[:5]],
        },
    }


def categorical_column(series):
    counts = series.value_counts().rename_axis("value").reset_index(name="count")
    top = counts.sort_values(["count", "value"], ascending=[False, True]).head(TOP_K)
    lengths = series.dropna().str.len()
    return {
        "kind": "string",
        "count": int(series.count()),
        "missing_count": int(series.isna().sum()),
        "unique_count": int(series.nunique()),
        "most_frequent": [str(value) for value in top["value"]],
        "frequencies": [int(count) for count in top["count"]],
        "lengths": {"min": int(lengths.min()), "mean": float(lengths.mean()), "max": int(lengths.max())},
    }


def cramers_v(a, b):
    table = pd.crosstab(a, b)
    if min(table.shape) < 2:
        return None
    return number(association(table.to_numpy(), method="cramer", correction=False))


def correlation_ratio(values, groups):
    both = pd.DataFrame({"value": values, "group": groups}).dropna()
    total = ((both["value"] - both["value"].mean()) ** 2).sum()
    if both.empty or both["value"].nunique() < 2 or total == 0:
        return None
    stats = both.groupby("group")["value"].agg(["count", "mean"])
    between = (stats["count"] * (stats["mean"] - both["value"].mean()) ** 2).sum()
    return number(math.sqrt(between / total))


def reference(name):
    frame = read(DATASETS / f"{name}.csv")
    numeric = [column for column in frame.columns if pd.api.types.is_numeric_dtype(frame[column])]
    is_numeric = set(numeric)
    columns = {
        column: numeric_column(frame[column]) if column in is_numeric else categorical_column(frame[column])
        for column in frame.columns
    }
    corr = frame[numeric].corr()
    correlations = {
        f"{a}-{b}": number(corr.loc[a, b]) for i, a in enumerate(numeric) for b in numeric[i + 1:]
    }
    associations = {}
    names = list(frame.columns)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a not in is_numeric and b not in is_numeric:
                associations[f"{a}-{b}"] = {"method": "cramers_v", "value": cramers_v(frame[a], frame[b])}
            elif (a in is_numeric) != (b in is_numeric):
                value, group = (a, b) if a in is_numeric else (b, a)
                associations[f"{a}-{b}"] = {
                    "method": "correlation_ratio",
                    "value": correlation_ratio(frame[value], frame[group]),
                }
    return {
        "dataset": name,
        "generated_with": {"pandas": pd.__version__, "numpy": np.__version__, "scipy": __import__("scipy").__version__},
        "row_count": int(len(frame)),
        "column_count": int(len(frame.columns)),
        "columns": columns,
        "correlations": correlations,
        "associations": associations,
        "duplicate_row_count": int(frame.duplicated().sum()),
        "completeness": float(frame.notna().to_numpy().sum() / frame.size),
    }


def main(names):
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names or NAMES:
        path = OUT / f"{name}.reference.json"
        path.write_text(json.dumps(reference(name), indent=1, allow_nan=False) + "\n")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
