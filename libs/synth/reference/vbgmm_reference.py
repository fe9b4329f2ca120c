"""Reference values of scikit-learn's BayesianGaussianMixture for libs/synth/src/transform (run by hand, not by npm test).

    .cache/pyref/bin/python libs/synth/reference/vbgmm_reference.py    # needs: pip install scikit-learn

The mixture as rdt's ClusterBasedNormalizer (and so CTGAN) configures it: 10 components, Dirichlet-process weight
prior with concentration 0.001, max_iter 100, every other setting sklearn's default. Writes
fixtures/vbgmm.json with, for each sample:
- `values`: the data (a 3-mode mixture; a skewed positive one; a few-valued integer one);
- `fixed_init`: the fit when EM starts from a given hard assignment (value rank → component: sorted values cut into
  10 equal-count blocks), so the variational EM arithmetic can be compared exactly, independent of k-means;
- `kmeans_init`: sklearn's own fits (k-means initialisation) for a few random states, to compare the modes found.
"""
import json
import pathlib
import warnings

import numpy as np
from sklearn.mixture import BayesianGaussianMixture

warnings.filterwarnings("ignore")
FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def model(seed=0):
    return BayesianGaussianMixture(
        n_components=10,
        weight_concentration_prior_type="dirichlet_process",
        weight_concentration_prior=0.001,
        max_iter=100,
        n_init=1,
        random_state=seed,
    )


def describe(fitted):
    return {
        "weights": fitted.weights_.tolist(),
        "means": fitted.means_.ravel().tolist(),
        "stds": np.sqrt(fitted.covariances_.ravel()).tolist(),
        "n_iter": int(fitted.n_iter_),
        "converged": bool(fitted.converged_),
        "lower_bound": float(fitted.lower_bound_),
    }


def rank_blocks(values, components=10):
    order = np.argsort(values, kind="stable")
    resp = np.zeros((len(values), components))
    for rank, row in enumerate(order):
        resp[row, rank * components // len(values)] = 1.0
    return resp


def fit_from(values, resp):
    fitted = model()
    x = values.reshape(-1, 1)
    # BaseMixture._initialize_parameters draws resp from k-means; replace it with the given one.
    fitted._initialize_parameters = lambda X, random_state, **_: fitted._initialize(X, resp)
    fitted.fit(x)
    probabilities = fitted.predict_proba(x[:20])
    return {**describe(fitted), "predict_proba_first_20": probabilities.tolist()}


def main():
    rng = np.random.default_rng(20240611)
    samples = {
        "three_modes": np.concatenate([
            rng.normal(-10.0, 1.0, 1500), rng.normal(0.0, 0.5, 1000), rng.normal(8.0, 2.0, 500)
        ]),
        "lognormal": rng.lognormal(3.0, 0.8, 2000),
        "few_integers": rng.poisson(2.0, 1500).astype(float),
    }
    out = {}
    for name, values in samples.items():
        values = rng.permutation(values)
        out[name] = {
            "values": values.tolist(),
            "fixed_init": fit_from(values, rank_blocks(values)),
            "kmeans_init": [describe(model(seed).fit(values.reshape(-1, 1))) for seed in range(3)],
        }
    (FIXTURES / "vbgmm.json").write_text(json.dumps(out))


if __name__ == "__main__":
    main()
