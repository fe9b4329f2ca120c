"""Reference numbers for libs/evaluation/src/utility (ML utility), from scikit-learn 1.9.1 and xgboost 3.2.0.

Writes fixtures/ml_utility.json with three parts:
  metrics   - sklearn.metrics on fixed arrays (accuracy, F1, ROC AUC binary / OvR macro, R², MAE): TS must match to 1e-9.
  xgboost   - XGBoost hist predictions on small generated tables (binary, multiclass, regression; features with few
              distinct values, where cut points are exact, and continuous ones, where the quantile sketch decides).
  penguins  - the penguins table, a perturbed "synthetic" copy and a hold-out split; TRTR and TSTR scores of
              RandomForest (mean over 5 seeds) and XGBoost for three targets (species, sex, body_mass_g).
The feature matrix is built exactly as features.ts does (value + median imputation + missing indicator, one-hot
labels in frequency order), so both sides train on the same numbers.

Run from the repository root: .cache/pyref-ml/bin/python libs/evaluation/reference/ml_utility_reference.py
"""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn
import xgboost as xgb
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.metrics import accuracy_score, f1_score, mean_absolute_error, r2_score, roc_auc_score
from sklearn.model_selection import train_test_split

ROOT = Path(__file__).resolve().parents[3]
OUT = Path(__file__).resolve().parent / "fixtures" / "ml_utility.json"
RF_SEEDS = [0, 1, 2, 3, 4]


def metrics_fixture():
    rng = np.random.default_rng(7)
    n = 200
    y_bin = rng.integers(0, 2, n)
    # Scores rounded to 1 decimal: many ties, which ROC AUC must handle as sklearn does.
    s_bin = np.round(np.clip(0.3 * y_bin + rng.uniform(0, 0.7, n), 0, 1), 1)
    p_bin = (s_bin >= 0.5).astype(int)
    y_multi = rng.integers(0, 3, n)
    raw = rng.uniform(0, 1, (n, 3)) + np.eye(3)[y_multi] * 0.4
    raw = np.round(raw, 2)
    p_multi = raw / raw.sum(axis=1, keepdims=True)
    pred_multi = p_multi.argmax(axis=1)
    pred_multi[:5] = 1  # class 1 over-predicted a little
    y_reg = rng.normal(10, 3, n)
    pred_reg = y_reg + rng.normal(0, 1.5, n)
    return {
        "binary": {
            "truth": y_bin.tolist(), "scores": s_bin.tolist(), "predicted": p_bin.tolist(),
            "accuracy": accuracy_score(y_bin, p_bin), "f1": f1_score(y_bin, p_bin), "roc_auc": roc_auc_score(y_bin, s_bin),
        },
        "multiclass": {
            "truth": y_multi.tolist(), "probabilities": p_multi.ravel().tolist(), "predicted": pred_multi.tolist(),
            "accuracy": accuracy_score(y_multi, pred_multi), "f1": f1_score(y_multi, pred_multi, average="macro"),
            "roc_auc": roc_auc_score(y_multi, p_multi, multi_class="ovr", average="macro"),
        },
        "regression": {
            "truth": y_reg.tolist(), "predicted": pred_reg.tolist(),
            "r2": r2_score(y_reg, pred_reg), "mae": mean_absolute_error(y_reg, pred_reg),
        },
    }


def xgb_params():
    # XGBoost's Python defaults, spelled out; hist with 256 bins, one thread for reproducibility.
    return dict(n_estimators=100, max_depth=6, learning_rate=0.3, reg_lambda=1.0, gamma=0.0, min_child_weight=1.0,
                reg_alpha=0.0, tree_method="hist", max_bin=256, subsample=1.0, colsample_bytree=1.0, n_jobs=1, random_state=0)


def xgboost_fixture():
    cases = []
    rng = np.random.default_rng(11)
    n_train, n_test = 400, 150
    for binning in ["exact", "sketched"]:
        x = rng.normal(size=(n_train + n_test, 5))
        if binning == "exact":
            x = np.round(x * 10) / 10  # ~60 distinct values per feature: one bin each
        x[:, 4] = (x[:, 4] > 0.3).astype(float)  # a 0/1 feature as one-hot columns are
        signal = x[:, 0] + 0.8 * x[:, 1] * x[:, 2] - 0.5 * x[:, 3] + 0.7 * x[:, 4]
        noisy = signal + rng.normal(0, 0.7, n_train + n_test)
        targets = {
            "binary": (noisy > 0.4).astype(int),
            "multiclass": np.digitize(noisy, [-0.5, 0.8]),
            "regression": 5 + 2 * noisy,
        }
        for objective, y in targets.items():
            model = (xgb.XGBRegressor(objective="reg:squarederror", **xgb_params()) if objective == "regression"
                     else xgb.XGBClassifier(**xgb_params()))
            model.fit(x[:n_train], y[:n_train])
            predicted = model.predict(x[n_train:]) if objective == "regression" else model.predict_proba(x[n_train:])
            cases.append({
                "name": f"{objective}-{binning}", "objective": objective,
                "train": x[:n_train].T.tolist(), "trainTarget": y[:n_train].tolist(),
                "test": x[n_train:].T.tolist(), "predictions": np.asarray(predicted, dtype=float).ravel().tolist(),
                "baseScore": json.loads(model.get_booster().save_config())["learner"]["learner_model_param"]["base_score"],
            })
    return cases


def column_json(series: pd.Series, kind: str):
    if kind == "categorical":
        labels = sorted(series.dropna().unique().tolist())
        index = {label: i for i, label in enumerate(labels)}
        return {"name": series.name, "kind": "categorical", "categories": labels,
                "codes": [-1 if pd.isna(v) else index[v] for v in series]}
    return {"name": series.name, "kind": "continuous", "values": [None if pd.isna(v) else float(v) for v in series]}


def feature_matrix(real, synthetic, target, train_table, train_rows, encode_table, encode_rows):
    """features.ts: value (+ median imputation from the training rows) and missing indicator; one-hot by frequency."""
    columns = []
    for name in real.columns:
        if name == target:
            continue
        if pd.api.types.is_numeric_dtype(real[name]):
            median = train_table.loc[train_rows, name].median()
            values = encode_table.loc[encode_rows, name]
            columns.append(values.fillna(0.0 if pd.isna(median) else median).to_numpy(dtype=float))
            if real[name].isna().any() or synthetic[name].isna().any():
                columns.append(values.isna().to_numpy(dtype=float))
        else:
            counts = real[name].value_counts()
            labels = sorted(counts.index, key=lambda label: (-counts[label], label))[:20]
            values = encode_table.loc[encode_rows, name]
            for label in labels:
                columns.append((values == label).to_numpy(dtype=float))
    return np.column_stack(columns)


def scores(task, y_true, predicted):
    if task == "regression":
        return {"r2": r2_score(y_true, predicted), "mae": mean_absolute_error(y_true, predicted)}
    labels = predicted.argmax(axis=1)
    binary = predicted.shape[1] == 2
    return {
        "accuracy": accuracy_score(y_true, labels),
        "f1": f1_score(y_true, labels, average="binary" if binary else "macro"),
        "roc_auc": roc_auc_score(y_true, predicted[:, 1]) if binary else roc_auc_score(y_true, predicted, multi_class="ovr", average="macro"),
    }


def perturbed_copy(real: pd.DataFrame) -> pd.DataFrame:
    """A stand-in synthetic table: rows resampled, numbers jittered, 10 % of labels redrawn from the column's labels."""
    rng = np.random.default_rng(5)
    synthetic = real.sample(n=len(real), replace=True, random_state=3).reset_index(drop=True)
    for name in synthetic.columns:
        column = synthetic[name]
        if pd.api.types.is_numeric_dtype(column):
            jitter = rng.normal(0, 0.15 * column.std(), len(column))
            synthetic[name] = column + jitter
            if name in ("flipper_length_mm", "body_mass_g"):
                synthetic[name] = synthetic[name].round()
        else:
            labels = column.dropna().unique()
            redraw = rng.uniform(size=len(column)) < 0.1
            synthetic.loc[redraw & column.notna(), name] = rng.choice(labels, size=int((redraw & column.notna()).sum()))
    return synthetic


def penguins_fixture():
    real = pd.read_csv(ROOT / "test/fixtures/datasets/penguins.csv")
    synthetic = perturbed_copy(real)
    kinds = {name: ("continuous" if pd.api.types.is_numeric_dtype(real[name]) else "categorical") for name in real.columns}
    targets = []
    for target, task in [("species", "classification"), ("sex", "classification"), ("body_mass_g", "regression")]:
        real_rows = np.flatnonzero(real[target].notna().to_numpy())
        synthetic_rows = np.flatnonzero(synthetic[target].notna().to_numpy())
        if task == "classification":
            classes = sorted(real[target].dropna().unique().tolist())
            encode = lambda frame, rows: frame.loc[rows, target].map({c: i for i, c in enumerate(classes)}).to_numpy()
            stratify = encode(real, real_rows)
        else:
            classes = None
            encode = lambda frame, rows: frame.loc[rows, target].to_numpy(dtype=float)
            stratify = None
        train_rows, test_rows = train_test_split(real_rows, test_size=0.25, random_state=0, stratify=stratify)
        train_rows, test_rows = np.sort(train_rows), np.sort(test_rows)
        y_test = encode(real, test_rows)
        result = {"target": target, "task": task, "classes": classes, "trainRows": train_rows.tolist(), "testRows": test_rows.tolist(),
                  "syntheticRows": synthetic_rows.tolist()}
        for setting, table, rows in [("trtr", real, train_rows), ("tstr", synthetic, synthetic_rows)]:
            x_train = feature_matrix(real, synthetic, target, table, rows, table, rows)
            x_test = feature_matrix(real, synthetic, target, table, rows, real, test_rows)
            y_train = encode(table, rows)
            forest = []
            for seed in RF_SEEDS:
                model = RandomForestRegressor(random_state=seed) if task == "regression" else RandomForestClassifier(random_state=seed)
                model.fit(x_train, y_train)
                forest.append(scores(task, y_test, model.predict(x_test) if task == "regression" else model.predict_proba(x_test)))
            result[f"random_forest_{setting}"] = {metric: float(np.mean([s[metric] for s in forest])) for metric in forest[0]}
            if task == "regression":
                booster = xgb.XGBRegressor(objective="reg:squarederror", **xgb_params()).fit(x_train, y_train)
                result[f"xgboost_{setting}"] = scores(task, y_test, booster.predict(x_test))
            else:
                booster = xgb.XGBClassifier(**xgb_params()).fit(x_train, y_train)
                result[f"xgboost_{setting}"] = scores(task, y_test, booster.predict_proba(x_test))
        targets.append(result)
    return {
        "real": [column_json(real[name], kinds[name]) for name in real.columns],
        "synthetic": [column_json(synthetic[name], kinds[name]) for name in synthetic.columns],
        "types": {name: ("integer" if name in ("flipper_length_mm", "body_mass_g") else "float" if kinds[name] == "continuous" else "string") for name in real.columns},
        "targets": targets,
    }


def main():
    fixture = {
        "versions": {"sklearn": sklearn.__version__, "xgboost": xgb.__version__, "numpy": np.__version__, "pandas": pd.__version__},
        "metrics": metrics_fixture(),
        "xgboost": xgboost_fixture(),
        "penguins": penguins_fixture(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, allow_nan=False) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
