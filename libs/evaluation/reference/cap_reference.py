"""Reference values of the CAP attribute-inference attack (run by hand, not by npm test; see README.md beside this file).

    .cache/pyref-sdmetrics/bin/python libs/evaluation/reference/cap_reference.py

Writes, under fixtures/: cap_members.csv (300 rows the generator "trained on"), cap_non_members.csv (100 rows it
never saw) and cap_synthetic.csv (400 rows: 100 copies of member rows, 300 fresh draws from the population), and
cap.json with SDMetrics' CategoricalCAP, CategoricalZeroCAP and DisclosureProtection (its "cap" and "zero_cap"
computation methods, continuous key columns in 10 equal-width bins) for each case below, on the members and on the
non-members as attacked rows, and with it the column types the CSVs are read with.
"""
import json
import warnings

import numpy as np
import pandas as pd
import sdmetrics
from sdmetrics.single_table.privacy.cap import CategoricalCAP, CategoricalZeroCAP
from sdmetrics.single_table.privacy.disclosure_protection import DisclosureProtection

from evaluation_reference import FIXTURES, load, write_csv

warnings.filterwarnings("ignore")

TYPES = {"zone": "string", "sex": "string", "age": "integer", "income": "float", "born": "date",
         "diagnosis": "string", "smoker": "boolean"}
CASES = [
    # Categorical keys only: CategoricalCAP is called directly too (no binning involved).
    {"name": "categorical_keys", "keys": ["zone", "sex"], "sensitive": "diagnosis", "continuous": []},
    # Binned keys: an integer with missing values, a float and a date.
    {"name": "binned_keys", "keys": ["zone", "age", "income", "born"], "sensitive": "smoker", "continuous": ["age", "income", "born"]},
    {"name": "binned_keys_diagnosis", "keys": ["sex", "age"], "sensitive": "diagnosis", "continuous": ["age"]},
]


def population(rng, rows):
    frame = pd.DataFrame({
        "zone": rng.choice(["north", "south", "east", "west", "centre", "harbour"], rows, p=[0.3, 0.25, 0.2, 0.15, 0.07, 0.03]).astype(object),
        "sex": rng.choice(["F", "M"], rows).astype(object),
        "age": pd.array(rng.integers(18, 91, rows), dtype="Int64"),
        "income": np.round(rng.lognormal(10, 0.6, rows), 2),
        "born": pd.Timestamp("1940-01-01") + pd.to_timedelta(rng.integers(0, 25_000, rows), unit="D"),
        "diagnosis": rng.choice(["J45", "E11", "I10", "F32", "K21"], rows, p=[0.35, 0.25, 0.2, 0.12, 0.08]).astype(object),
        "smoker": pd.array(rng.random(rows) < 0.25, dtype="boolean"),
    })
    frame.loc[rng.random(rows) < 0.05, "zone"] = np.nan
    frame.loc[rng.random(rows) < 0.04, "age"] = pd.NA
    frame.loc[rng.random(rows) < 0.05, "diagnosis"] = np.nan
    return frame


def scores(attacked, synthetic, case):
    keys, sensitive, continuous = case["keys"], [case["sensitive"]], case["continuous"] or None
    cap = DisclosureProtection.compute_breakdown(attacked, synthetic, keys, sensitive, "cap", continuous, 10)
    zero = DisclosureProtection.compute_breakdown(attacked, synthetic, keys, sensitive, "zero_cap", continuous, 10)
    result = {
        "cap_protection": float(cap["cap_protection"]),
        "zero_cap_protection": float(zero["cap_protection"]),
        "baseline_protection": float(cap["baseline_protection"]),
        "disclosure_protection": float(cap["score"]),
    }
    if not continuous:
        # The metrics themselves on the raw columns agree when no value is missing in the key and sensitive columns.
        complete = attacked.dropna(subset=keys + sensitive)
        complete_synthetic = synthetic.dropna(subset=keys + sensitive)
        result["complete_rows"] = {
            "cap_protection": float(CategoricalCAP.compute(complete, complete_synthetic, key_fields=keys, sensitive_fields=sensitive)),
            "zero_cap_protection": float(CategoricalZeroCAP.compute(complete, complete_synthetic, key_fields=keys, sensitive_fields=sensitive)),
        }
    return result


def main():
    rng = np.random.default_rng(20260301)
    people = population(rng, 400)
    write_csv(people.iloc[:300], FIXTURES / "cap_members.csv")
    write_csv(people.iloc[300:], FIXTURES / "cap_non_members.csv")
    members = load(FIXTURES / "cap_members.csv", TYPES)
    synthetic = pd.concat([members.sample(n=100, random_state=3), population(rng, 300)], ignore_index=True)
    write_csv(synthetic.sample(frac=1, random_state=4).reset_index(drop=True), FIXTURES / "cap_synthetic.csv")
    members = load(FIXTURES / "cap_members.csv", TYPES)
    non_members = load(FIXTURES / "cap_non_members.csv", TYPES)
    synthetic = load(FIXTURES / "cap_synthetic.csv", TYPES)
    cases = [{**case, "members": scores(members, synthetic, case), "non_members": scores(non_members, synthetic, case)} for case in CASES]
    out = {"sdmetrics": sdmetrics.__version__, "pandas": pd.__version__, "numpy": np.__version__, "types": TYPES, "cases": cases}
    (FIXTURES / "cap.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
