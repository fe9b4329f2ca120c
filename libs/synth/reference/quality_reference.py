"""Reference values of SDMetrics' single-table QualityReport for libs/synth/src/quality (run by hand, not by npm test).

    .cache/pyref-sdmetrics/bin/python libs/synth/reference/quality_reference.py

Writes, under fixtures/: penguins_synthetic.csv (penguins resampled and perturbed), mixed_real.csv and
mixed_synthetic.csv (generated: integer, float, date, datetime, boolean and string columns with missing values),
and quality.json with SDMetrics' scores and details for each pair of tables, once with the report's default
thresholds and once with both thresholds at 0 (every pair counts). All tables have fewer than 50,000 rows, so
SDMetrics does not subsample and the numbers are deterministic.
"""
import json
import math
import pathlib
import warnings

import numpy as np
import pandas as pd
import sdmetrics
from sdmetrics.reports.single_table import QualityReport

warnings.filterwarnings("ignore")
HERE = pathlib.Path(__file__).parent
FIXTURES = HERE / "fixtures"
DATASETS = HERE.parents[2] / "test" / "fixtures" / "datasets"


def write_csv(frame, path):
    frame.to_csv(path, index=False, na_rep="", date_format="%Y-%m-%dT%H:%M:%S")


def penguins_synthetic(real, rng):
    synthetic = real.sample(n=300, replace=True, random_state=7).reset_index(drop=True)
    for column, sd in [("bill_length_mm", 1.5), ("bill_depth_mm", 0.8)]:
        synthetic[column] = (synthetic[column] + rng.normal(0, sd, len(synthetic))).round(1)
    for column, sd in [("flipper_length_mm", 6), ("body_mass_g", 250)]:
        synthetic[column] = (synthetic[column] + rng.normal(0, sd, len(synthetic))).round().astype("Int64")
    flip = rng.random(len(synthetic)) < 0.15
    synthetic.loc[flip, "island"] = rng.choice(["Biscoe", "Dream", "Torgersen"], flip.sum())
    synthetic.loc[rng.random(len(synthetic)) < 0.05, "sex"] = np.nan
    synthetic.loc[rng.random(len(synthetic)) < 0.03, "body_mass_g"] = pd.NA
    return synthetic


def mixed_table(rng, rows, shift):
    base = rng.normal(0, 1, rows)
    frame = pd.DataFrame({
        "amount": np.round(50 + 10 * base + rng.normal(shift, 4, rows), 2),
        "count": pd.array(np.round(3 + 2 * base + rng.normal(0, 1, rows)).astype(int), dtype="Int64"),
        "day": pd.Timestamp("2020-01-01") + pd.to_timedelta(np.round(100 + 30 * base + rng.normal(0, 20, rows)).astype(int), unit="D"),
        "moment": pd.Timestamp("2021-06-01") + pd.to_timedelta(np.round(86400 * (5 + 3 * base + rng.normal(shift, 2, rows))).astype(int), unit="s"),
        "active": np.where(base + rng.normal(0, 1, rows) > shift, "true", "false"),
        "tier": np.where(base > 0.5, "gold", np.where(base > -0.5, "silver", rng.choice(["bronze", "tin"], rows))),
    })
    frame.loc[rng.random(rows) < 0.05, "amount"] = np.nan
    frame.loc[rng.random(rows) < 0.04, "tier"] = np.nan
    frame.loc[rng.random(rows) < 0.03, "day"] = pd.NaT
    return frame


def load(path, metadata):
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    for name, column in metadata["columns"].items():
        if column["sdtype"] == "datetime":
            frame[name] = pd.to_datetime(frame[name])
        elif column["sdtype"] == "boolean":
            frame[name] = frame[name].map({True: True, False: False, "true": True, "false": False})
    return frame


def clean(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.floating, float, np.integer, int)):
        return float(value)
    return value


def report(real, synthetic, metadata, thresholds):
    quality = QualityReport()
    if not thresholds:
        quality.real_correlation_threshold = 0
        quality.real_association_threshold = 0
    quality.generate(real, synthetic, metadata, verbose=False)
    shapes = quality.get_details("Column Shapes")
    trends = quality.get_details("Column Pair Trends")
    properties = quality.get_properties().set_index("Property")["Score"]
    return {
        "score": clean(quality.get_score()),
        "column_shapes": {
            "score": clean(properties["Column Shapes"]),
            "details": [{"column": r["Column"], "metric": r["Metric"], "score": clean(r["Score"])} for _, r in shapes.iterrows()],
        },
        "column_pair_trends": {
            "score": clean(properties["Column Pair Trends"]),
            "details": [
                {
                    "column_1": r["Column 1"], "column_2": r["Column 2"], "metric": r["Metric"], "score": clean(r["Score"]),
                    "real_correlation": clean(r["Real Correlation"]), "synthetic_correlation": clean(r["Synthetic Correlation"]),
                    "real_association": clean(r["Real Association"]), "meets_threshold": clean(r["Meets Threshold?"]),
                }
                for _, r in trends.iterrows()
            ],
        },
    }


def main():
    rng = np.random.default_rng(20240601)
    penguins_metadata = {"columns": {
        "species": {"sdtype": "categorical"}, "island": {"sdtype": "categorical"},
        "bill_length_mm": {"sdtype": "numerical"}, "bill_depth_mm": {"sdtype": "numerical"},
        "flipper_length_mm": {"sdtype": "numerical"}, "body_mass_g": {"sdtype": "numerical"},
        "sex": {"sdtype": "categorical"},
    }}
    real = pd.read_csv(DATASETS / "penguins.csv")
    write_csv(penguins_synthetic(real, rng), FIXTURES / "penguins_synthetic.csv")
    mixed_metadata = {"columns": {
        "amount": {"sdtype": "numerical"}, "count": {"sdtype": "numerical"},
        "day": {"sdtype": "datetime", "datetime_format": "%Y-%m-%d"},
        "moment": {"sdtype": "datetime", "datetime_format": "%Y-%m-%dT%H:%M:%S"},
        "active": {"sdtype": "boolean"}, "tier": {"sdtype": "categorical"},
    }}
    real_mixed = mixed_table(rng, 2000, 0.0)
    real_mixed["day"] = real_mixed["day"].dt.strftime("%Y-%m-%d")
    synthetic_mixed = mixed_table(rng, 1500, 0.3)
    synthetic_mixed["day"] = synthetic_mixed["day"].dt.strftime("%Y-%m-%d")
    write_csv(real_mixed, FIXTURES / "mixed_real.csv")
    write_csv(synthetic_mixed, FIXTURES / "mixed_synthetic.csv")

    cases = {
        "penguins": (DATASETS / "penguins.csv", FIXTURES / "penguins_synthetic.csv", penguins_metadata),
        "mixed": (FIXTURES / "mixed_real.csv", FIXTURES / "mixed_synthetic.csv", mixed_metadata),
    }
    result = {"sdmetrics": sdmetrics.__version__, "cases": {}}
    for name, (real_path, synthetic_path, metadata) in cases.items():
        real_frame, synthetic_frame = load(real_path, metadata), load(synthetic_path, metadata)
        result["cases"][name] = {
            "default_thresholds": report(real_frame, synthetic_frame, metadata, True),
            "no_thresholds": report(real_frame, synthetic_frame, metadata, False),
        }
    (FIXTURES / "quality.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
