"""Reference values for libs/evaluation (run by hand, not by npm test; see README.md beside this file).

    .cache/pyref-sdmetrics/bin/python libs/evaluation/reference/evaluation_reference.py

Writes, under fixtures/:
- distributions.json: scipy's kstwo.sf, smirnov and chi2.sf on grids that reach every branch of scipy's Kolmogorov
  distribution; ks_2samp, wasserstein_distance and SDMetrics' CSTest on deterministic samples (the same formulas
  rebuild them in TypeScript, so no sample is stored); sklearn's roc_auc_score on scores with ties.
- statistical.json: per-column KS (as SDMetrics' KSComplement prepares the values), CSTest, Wasserstein distance and
  TVComplement for penguins vs penguins_synthetic.csv and mixed_real.csv vs mixed_synthetic.csv (copied from
  libs/synth/reference/fixtures), and the three summary figures.
- diagnostic.json: SDMetrics' DiagnosticReport on those pairs and on mixed_real.csv vs mixed_broken.csv (written
  here: values out of range, an unknown category, a float column where the real one is integer, a renamed column).
- privacy.json: SDMetrics' calculate_dcr (per row), DCRBaselineProtection (with the random baseline written to
  privacy_random.csv and passed in), DCROverfittingProtection, NewRowSynthesis (tolerance 0.01 and 0), the
  nearest-neighbour distance ratio (numpy, with SDMetrics' distance) and the membership-inference AUC
  (roc_auc_score of −DCR) on privacy_training.csv / privacy_holdout.csv / privacy_synthetic.csv (written here), and
  calculate_dcr, NewRowSynthesis and the ratio on the mixed pair.
Every CSV is typed here as the TypeScript ingestion types it (the tests check that it does).
"""
import json
import math
import pathlib
import shutil
import warnings

import numpy as np
import pandas as pd
import scipy
import sdmetrics
import sklearn
from scipy import special, stats
from sdmetrics.reports.single_table import DiagnosticReport
from sdmetrics.single_column import CSTest, TVComplement
from sdmetrics.single_table import DCRBaselineProtection, DCROverfittingProtection, NewRowSynthesis, TableStructure
from sdmetrics.single_table.privacy.dcr_utils import calculate_dcr
from sklearn.metrics import roc_auc_score

warnings.filterwarnings("ignore")
HERE = pathlib.Path(__file__).parent
FIXTURES = HERE / "fixtures"
ROOT = HERE.parents[2]
DATASETS = ROOT / "test" / "fixtures" / "datasets"
SYNTH_FIXTURES = ROOT / "libs" / "synth" / "reference" / "fixtures"

PENGUINS = {"species": "string", "island": "string", "bill_length_mm": "float", "bill_depth_mm": "float",
            "flipper_length_mm": "integer", "body_mass_g": "integer", "sex": "string"}
MIXED = {"amount": "float", "count": "integer", "day": "date", "moment": "datetime", "active": "boolean", "tier": "string"}
BROKEN = {"amount": "float", "count": "float", "day": "date", "moment": "datetime", "is_active": "boolean", "tier": "string"}
PRIVACY = {"age": "integer", "income": "float", "joined": "date", "city": "string", "member": "boolean", "version": "integer"}
PRIVACY_RANDOM = {**PRIVACY, "joined": "datetime"}
SDTYPES = {"integer": "numerical", "float": "numerical", "date": "datetime", "datetime": "datetime",
           "boolean": "boolean", "string": "categorical"}


def clean(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.floating, float, np.integer, int)):
        value = float(value)
        return None if math.isnan(value) else value
    return value


def load(path, types):
    """A CSV as pandas holds our logical types: Int64, float64, datetime64, boolean, object."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=str)
    for name, kind in types.items():
        column = frame[name]
        if kind == "integer":
            frame[name] = pd.to_numeric(column).astype("Int64")
        elif kind == "float":
            frame[name] = pd.to_numeric(column).astype("float64")
        elif kind in ("date", "datetime"):
            frame[name] = pd.to_datetime(column, format="ISO8601").astype("datetime64[ns]")
        elif kind == "boolean":
            frame[name] = column.map({"true": True, "false": False, "True": True, "False": False}).astype("boolean")
    return frame


def metadata_of(types):
    return {"columns": {name: {"sdtype": SDTYPES[kind]} for name, kind in types.items()}}


def write_csv(frame, path):
    out = frame.copy()
    for name in out.columns:
        if str(out[name].dtype) == "boolean" or out[name].dtype == bool:
            out[name] = out[name].map({True: "true", False: "false"})
    out.to_csv(path, index=False, na_rep="", date_format="%Y-%m-%dT%H:%M:%S.%f")
    text = path.read_text().replace("T00:00:00.000000", "").replace(".000000", "")
    path.write_text(text)


def in_unit(series, kind):
    """Present values in the TypeScript unit: days for dates, milliseconds for datetimes."""
    present = series.dropna()
    if kind == "date":
        return present.astype("int64").to_numpy() / 86_400_000_000_000
    if kind == "datetime":
        return present.astype("int64").to_numpy() / 1_000_000
    return present.to_numpy(dtype="float64")


# ---- distributions.json -------------------------------------------------------------------------------------------

def sequence(spec):
    """The deterministic samples the TypeScript tests rebuild: frac(i·α) for i = 1 … n, scaled, optionally floored."""
    i = np.arange(1, spec["n"] + 1, dtype="float64")
    values = (i * spec["alpha"]) % 1.0 * spec["scale"] + spec["shift"]
    return np.floor(values) if spec["floor"] else values


def sample_spec(n, alpha, scale=1.0, shift=0.0, floor=False):
    return {"n": n, "alpha": alpha, "scale": scale, "shift": shift, "floor": floor}


def distributions():
    kstwo = []
    for n in [1, 2, 3, 5, 10, 37, 100, 140, 141, 500, 1000, 5000, 26970, 100000, 100001, 250000]:
        xs = set()
        for t in [0.3, 0.5, 0.6, 0.75, 1.0]:
            xs.add(t / n)
        for nx2 in [0.05, 0.2, 0.5, 0.75, 0.76, 1, 1.5, 2.19, 2.21, 3, 4, 4.5, 8, 17, 19, 100, 369, 371]:
            xs.add(math.sqrt(nx2 / n))
        for x in [0.45, 0.5, 0.6, 0.8, 0.99, 1 - 1 / n, 1 - 0.5 / n]:
            xs.add(x)
        for x in sorted(x for x in xs if 0 < x < 1):
            kstwo.append({"n": n, "x": x, "sf": float(stats.kstwo.sf(x, n))})
    smirnov = []
    for n in [1, 2, 5, 10, 50, 141, 1000, 26970, 1200000]:
        for x in [0.001, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.999, 1 / n, 1.5 / n, 3 / n]:
            if 0 <= x <= 1:
                smirnov.append({"n": n, "x": x, "sf": float(special.smirnov(n, x))})
    chi2 = []
    for df in [1, 2, 3, 4, 7, 10, 50, 99, 500, 2000]:
        for x in [0.0, 1e-6, 0.01, 0.5, 1, 2.5, 7, 15, 30, 80, 200, 450, 600, 1900, 2100]:
            chi2.append({"df": df, "x": x, "sf": float(stats.chi2.sf(x, df))})

    ks_cases = [
        (sample_spec(50, 0.6180339887498949), sample_spec(50, 0.41421356237309503, 1.0, 0.05)),
        (sample_spec(40, 0.7320508075688772, 10, 0, True), sample_spec(60, 0.2360679774997898, 10, 1, True)),
        (sample_spec(344, 0.6180339887498949, 30, 170), sample_spec(300, 0.41421356237309503, 31, 171)),
        (sample_spec(2000, 0.6180339887498949, 100, 0, True), sample_spec(1500, 0.2360679774997898, 100, 2, True)),
        (sample_spec(10000, 0.6180339887498949), sample_spec(7000, 0.41421356237309503, 1.0, 0.01)),
        (sample_spec(12000, 0.6180339887498949), sample_spec(8000, 0.41421356237309503, 1.0, 0.005)),
        (sample_spec(12000, 0.6180339887498949), sample_spec(8000, 0.41421356237309503, 1.0, 0.05)),
        (sample_spec(53940, 0.6180339887498949, 5, 0), sample_spec(53940, 0.41421356237309503, 5, 0.01)),
        (sample_spec(15000, 0.6180339887498949), sample_spec(100, 0.41421356237309503, 1.0, 0.03)),
        (sample_spec(30000, 0.6180339887498949, 20, 0, True), sample_spec(20000, 0.7320508075688772, 20, 0, True)),
    ]
    ks = []
    for a, b in ks_cases:
        result = stats.ks_2samp(sequence(a), sequence(b))
        method = "exact" if max(a["n"], b["n"]) <= 10000 else "asymp"
        ks.append({"a": a, "b": b, "statistic": float(result.statistic), "p_value": float(result.pvalue), "method": method,
                   "wasserstein": float(stats.wasserstein_distance(sequence(a), sequence(b)))})

    cstest = []
    for real_spec, synthetic_spec in [
        (sample_spec(500, 0.6180339887498949, 5, 0, True), sample_spec(400, 0.41421356237309503, 5, 0, True)),
        (sample_spec(500, 0.6180339887498949, 4, 0, True), sample_spec(400, 0.41421356237309503, 6, 0, True)),
        (sample_spec(300, 0.6180339887498949, 1, 0, True), sample_spec(300, 0.41421356237309503, 1, 0, True)),
        (sample_spec(1000, 0.6180339887498949, 30, 0, True), sample_spec(900, 0.2360679774997898, 40, -5, True)),
    ]:
        # −1 stands for a missing value: NaN in the object arrays SDMetrics counts.
        as_objects = lambda values: np.array([np.nan if v < 0 else f"c{int(v)}" for v in values], dtype=object)
        real_values, synthetic_values = as_objects(sequence(real_spec)), as_objects(sequence(synthetic_spec))
        f_obs, f_exp = sdmetrics.utils.get_frequencies(real_values, synthetic_values)
        statistic = float(stats.chisquare(f_obs, f_exp).statistic) if len(f_obs) > 1 else 0.0
        cstest.append({"real": real_spec, "synthetic": synthetic_spec, "statistic": statistic,
                       "p_value": float(CSTest.compute(real_values, synthetic_values))})

    auc = []
    for positive, negative in [
        (sample_spec(200, 0.6180339887498949, 10, 0, True), sample_spec(150, 0.41421356237309503, 10, 0, True)),
        (sample_spec(300, 0.6180339887498949), sample_spec(300, 0.41421356237309503, 1.0, -0.1)),
    ]:
        scores = np.concatenate([sequence(positive), sequence(negative)])
        labels = np.concatenate([np.ones(positive["n"]), np.zeros(negative["n"])])
        auc.append({"positive": positive, "negative": negative, "auc": float(roc_auc_score(labels, scores))})
    return {"kstwo": kstwo, "smirnov": smirnov, "chi2": chi2, "ks_2samp": ks, "cstest": cstest, "roc_auc": auc}


# ---- statistical.json ---------------------------------------------------------------------------------------------

def ks_values(series):
    """What SDMetrics' KSComplement hands ks_2samp: present values, datetimes as ns, rounded to 14 decimals."""
    present = series.dropna()
    if pd.api.types.is_datetime64_any_dtype(present):
        present = pd.to_numeric(present)
    return present.astype("float64").round(14).to_numpy()


def statistical(real, synthetic, types):
    columns = []
    for name, kind in types.items():
        if SDTYPES[kind] in ("numerical", "datetime"):
            result = stats.ks_2samp(ks_values(real[name]), ks_values(synthetic[name]))
            real_values, synthetic_values = in_unit(real[name], kind), in_unit(synthetic[name], kind)
            distance = stats.wasserstein_distance(real_values, synthetic_values)
            value_range = real_values.max() - real_values.min()
            columns.append({"column": name, "kind": "continuous", "ks_statistic": float(result.statistic),
                            "ks_p_value": float(result.pvalue), "ks_complement": 1 - float(result.statistic),
                            "wasserstein_distance": float(distance), "normalised_wasserstein": float(distance / value_range)})
        else:
            real_values, synthetic_values = real[name].to_numpy(), synthetic[name].to_numpy()
            f_obs, f_exp = sdmetrics.utils.get_frequencies(real_values, synthetic_values)
            columns.append({"column": name, "kind": "categorical",
                            "chi_square_statistic": float(stats.chisquare(f_obs, f_exp).statistic),
                            "chi_square_p_value": float(CSTest.compute(real_values, synthetic_values)),
                            "tv_distance": 1 - float(TVComplement.compute(real[name], synthetic[name]))})
    continuous = [c for c in columns if c["kind"] == "continuous"]
    categorical = [c for c in columns if c["kind"] == "categorical"]
    return {
        "columns": columns,
        "similarity": {
            "ks_test": float(np.mean([c["ks_complement"] for c in continuous])),
            "chi_square": float(np.mean([c["chi_square_p_value"] for c in categorical])),
            "wasserstein_distance": float(np.mean([c["normalised_wasserstein"] for c in continuous])),
        },
    }


# ---- diagnostic.json ----------------------------------------------------------------------------------------------

def broken_synthetic(synthetic, rng):
    broken = synthetic.copy()
    broken["amount"] = broken["amount"] * 1.5
    broken["count"] = broken["count"].astype("float64") + 0.5
    broken.loc[rng.random(len(broken)) < 0.1, "tier"] = "platinum"
    return broken.rename(columns={"active": "is_active"})


def diagnostic(real, synthetic, real_types, synthetic_types):
    metadata_types = {**real_types, **{k: v for k, v in synthetic_types.items() if k not in real_types}}
    report = DiagnosticReport()
    report.generate(real, synthetic, metadata_of(metadata_types), verbose=False)
    validity = report.get_details("Data Validity")
    properties = report.get_properties().set_index("Property")["Score"]
    return {
        "score": clean(report.get_score()),
        "data_validity": {
            "score": clean(properties["Data Validity"]),
            "details": [{"column": r["Column"], "metric": r["Metric"], "score": clean(r["Score"])} for _, r in validity.iterrows()],
        },
        "data_structure": {"score": clean(properties["Data Structure"]),
                           "table_structure": clean(TableStructure.compute(real, synthetic))},
    }


# ---- privacy.json -------------------------------------------------------------------------------------------------

def privacy_population(rng, rows, version_two_share):
    frame = pd.DataFrame({
        "age": pd.array(rng.integers(18, 80, rows), dtype="Int64"),
        "income": np.round(rng.lognormal(10, 0.5, rows), 2),
        "joined": pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 3000, rows), unit="D"),
        "city": rng.choice(["Amsterdam", "Rotterdam", "Utrecht", "Eindhoven"], rows, p=[0.4, 0.3, 0.2, 0.1]).astype(object),
        "member": pd.array(rng.random(rows) < 0.3, dtype="boolean"),
        "version": pd.array(np.where(rng.random(rows) < version_two_share, 4, 3), dtype="Int64"),
    })
    frame.loc[rng.random(rows) < 0.05, "income"] = np.nan
    frame.loc[rng.random(rows) < 0.04, "city"] = np.nan
    frame.loc[rng.random(rows) < 0.03, "joined"] = pd.NaT
    return frame


def privacy_synthetic(training, rng):
    copies = training.sample(n=20, random_state=11)
    near = training.sample(n=20, random_state=12).copy()
    near["income"] = np.round(near["income"] * 1.004, 2)
    fresh = privacy_population(rng, 260, 0.05)
    synthetic = pd.concat([copies, near, fresh], ignore_index=True)
    return synthetic.sample(frac=1, random_state=13).reset_index(drop=True)


def dcr_matrix(dataset, reference, types):
    """SDMetrics' DCR distance between every pair of rows, with numpy (checked against calculate_dcr's minima)."""
    total = np.zeros((len(dataset), len(reference)))
    for name, kind in types.items():
        if SDTYPES[kind] in ("numerical", "datetime"):
            def numbers(series):
                if pd.api.types.is_datetime64_any_dtype(series):
                    return np.where(series.isna(), np.nan, series.astype("int64").to_numpy() / 1e9)
                return series.astype("float64").to_numpy()
            a, b = numbers(dataset[name])[:, None], numbers(reference[name])[None, :]
            present = b[~np.isnan(b)]
            value_range = present.max() - present.min()
            diff = np.abs(a - b)
            with np.errstate(invalid="ignore", divide="ignore"):
                d = (diff > 0).astype(float) if value_range == 0 else np.minimum(diff / value_range, 1.0)
            d = np.where(np.isnan(a) != np.isnan(b), 1.0, d)
            d = np.where(np.isnan(a) & np.isnan(b), 0.0, d)
        else:
            # Missing as one sentinel value: equal to itself only, as SDMetrics' (a == b) | (isna(a) & isna(b)).
            def labels(series):
                return series.astype(object).where(series.notna(), "\u0000missing").to_numpy(dtype=object)
            d = (labels(dataset[name])[:, None] != labels(reference[name])[None, :]).astype(float)
        total += d
    return total / len(types)


def nndr(dataset, reference, types):
    distances = dcr_matrix(dataset, reference, types)
    closest = np.sort(distances, axis=1)[:, :2]
    ratios = np.where(closest[:, 1] == 0, 1.0, closest[:, 0] / np.where(closest[:, 1] == 0, 1.0, closest[:, 1]))
    return closest[:, 0], {"ratios": ratios.tolist(), "median": float(np.median(ratios)), "mean": float(np.mean(ratios)),
                           "share_below_half": float(np.mean(ratios < 0.5))}


def dcr_list(dataset, reference, metadata):
    return [float(v) for v in calculate_dcr(dataset=dataset, reference_dataset=reference, metadata=metadata)]


def new_row_synthesis(real, synthetic, metadata, tolerance):
    result = NewRowSynthesis.compute_breakdown(real, synthetic, metadata, numerical_match_tolerance=tolerance)
    return {"score": float(result["score"]), "new_rows": int(result["num_new_rows"]), "matched_rows": int(result["num_matched_rows"])}


def privacy(rng):
    population = privacy_population(rng, 600, 0.0)
    write_csv(population.iloc[:400], FIXTURES / "privacy_training.csv")
    write_csv(population.iloc[400:], FIXTURES / "privacy_holdout.csv")
    training = load(FIXTURES / "privacy_training.csv", PRIVACY)
    write_csv(privacy_synthetic(training, rng), FIXTURES / "privacy_synthetic.csv")
    holdout = load(FIXTURES / "privacy_holdout.csv", PRIVACY)
    synthetic = load(FIXTURES / "privacy_synthetic.csv", PRIVACY)
    metadata = metadata_of(PRIVACY)

    # SDMetrics' own random baseline (seeded; its missing-value mask uses numpy's global generator), written out with
    # datetimes cut to milliseconds, then read back and handed to the metric so both sides see the same rows.
    DCRBaselineProtection._seed = 7
    np.random.seed(7)
    random_rows = DCRBaselineProtection._generate_random_data(training, len(synthetic))
    random_rows["joined"] = pd.to_datetime(random_rows["joined"]).dt.floor("ms")
    write_csv(random_rows, FIXTURES / "privacy_random.csv")
    random_rows = load(FIXTURES / "privacy_random.csv", PRIVACY_RANDOM)
    DCRBaselineProtection._generate_random_data = classmethod(lambda cls, real_data, num_samples=None: random_rows)
    baseline = DCRBaselineProtection.compute_breakdown(training, synthetic, metadata, None)
    overfitting = DCROverfittingProtection.compute_breakdown(training, synthetic, holdout, metadata, None)

    synthetic_to_training = dcr_list(synthetic, training, metadata)
    nearest, ratio = nndr(synthetic, training, PRIVACY)
    assert np.allclose(nearest, synthetic_to_training, rtol=0, atol=1e-12), "numpy DCR distance differs from SDMetrics'"
    training_to_synthetic = dcr_list(training, synthetic, metadata)
    holdout_to_synthetic = dcr_list(holdout, synthetic, metadata)
    labels = np.concatenate([np.ones(len(training)), np.zeros(len(holdout))])
    scores = -np.concatenate([training_to_synthetic, holdout_to_synthetic])

    mixed_real = load(FIXTURES / "mixed_real.csv", MIXED)
    mixed_synthetic = load(FIXTURES / "mixed_synthetic.csv", MIXED)
    mixed_metadata = metadata_of(MIXED)
    mixed_dcr = dcr_list(mixed_synthetic, mixed_real, mixed_metadata)
    mixed_nearest, mixed_ratio = nndr(mixed_synthetic, mixed_real, MIXED)
    assert np.allclose(mixed_nearest, mixed_dcr, rtol=0, atol=1e-12), "numpy DCR distance differs from SDMetrics' (mixed)"
    return {
        "training": {
            "dcr_synthetic_to_training": synthetic_to_training,
            "dcr_random_to_training": dcr_list(random_rows, training, metadata),
            "dcr_synthetic_to_holdout": dcr_list(synthetic, holdout, metadata),
            "dcr_training_to_synthetic": training_to_synthetic,
            "dcr_holdout_to_synthetic": holdout_to_synthetic,
            "dcr_baseline_protection": {
                "score": clean(baseline["score"]),
                "median_dcr_synthetic": float(baseline["median_DCR_to_real_data"]["synthetic_data"]),
                "median_dcr_random": float(baseline["median_DCR_to_real_data"]["random_data_baseline"]),
            },
            "dcr_overfitting_protection": {
                "score": float(overfitting["score"]),
                "closer_to_training": float(overfitting["synthetic_data_percentages"]["closer_to_training"]),
                "closer_to_holdout": float(overfitting["synthetic_data_percentages"]["closer_to_holdout"]),
            },
            "new_row_synthesis": new_row_synthesis(training, synthetic, metadata, 0.01),
            "exact_copies": new_row_synthesis(training, synthetic, metadata, 0.0),
            "nearest_neighbour_ratio": ratio,
            "membership_inference_auc": float(roc_auc_score(labels, scores)),
        },
        "mixed": {
            "dcr_synthetic_to_real": mixed_dcr,
            "new_row_synthesis": new_row_synthesis(mixed_real, mixed_synthetic, mixed_metadata, 0.01),
            "nearest_neighbour_ratio": mixed_ratio,
        },
    }


def main():
    rng = np.random.default_rng(20250101)
    for name in ["penguins_synthetic.csv", "mixed_real.csv", "mixed_synthetic.csv"]:
        shutil.copyfile(SYNTH_FIXTURES / name, FIXTURES / name)
    versions = {"sdmetrics": sdmetrics.__version__, "scipy": scipy.__version__, "sklearn": sklearn.__version__,
                "pandas": pd.__version__, "numpy": np.__version__}

    (FIXTURES / "distributions.json").write_text(json.dumps({**versions, **distributions()}, indent=1) + "\n")

    penguins_real, penguins_synthetic = load(DATASETS / "penguins.csv", PENGUINS), load(FIXTURES / "penguins_synthetic.csv", PENGUINS)
    mixed_real, mixed_synthetic = load(FIXTURES / "mixed_real.csv", MIXED), load(FIXTURES / "mixed_synthetic.csv", MIXED)
    write_csv(broken_synthetic(mixed_synthetic, rng), FIXTURES / "mixed_broken.csv")
    mixed_broken = load(FIXTURES / "mixed_broken.csv", BROKEN)
    cases = {"penguins": statistical(penguins_real, penguins_synthetic, PENGUINS),
             "mixed": statistical(mixed_real, mixed_synthetic, MIXED)}
    (FIXTURES / "statistical.json").write_text(json.dumps({**versions, "cases": cases}, indent=1) + "\n")

    diagnostics = {
        "penguins": diagnostic(penguins_real, penguins_synthetic, PENGUINS, PENGUINS),
        "mixed": diagnostic(mixed_real, mixed_synthetic, MIXED, MIXED),
        "broken": diagnostic(mixed_real, mixed_broken, MIXED, BROKEN),
    }
    (FIXTURES / "diagnostic.json").write_text(json.dumps({**versions, "cases": diagnostics}, indent=1) + "\n")

    (FIXTURES / "privacy.json").write_text(json.dumps({**versions, **privacy(rng)}, indent=1) + "\n")
    types = {"penguins.csv": PENGUINS, "penguins_synthetic.csv": PENGUINS, "mixed_real.csv": MIXED, "mixed_synthetic.csv": MIXED,
             "mixed_broken.csv": BROKEN, "privacy_training.csv": PRIVACY, "privacy_holdout.csv": PRIVACY,
             "privacy_synthetic.csv": PRIVACY, "privacy_random.csv": PRIVACY_RANDOM}
    (FIXTURES / "types.json").write_text(json.dumps(types, indent=1) + "\n")


if __name__ == "__main__":
    main()
