"""Reference values of scipy and copulas for libs/synth/src/copula (run by hand, not by npm test).

    .cache/pyref-sdmetrics/bin/python libs/synth/reference/distributions_reference.py

Writes fixtures/distributions.json: special functions (ndtr, ndtri, gammaln, psi, polygamma, gammainc(c),
gammaincinv, betainc, betaincinv), cdf and ppf of each parametric family, scipy's gaussian_kde cdf with Scott's
bandwidth, and copulas' fit of each family plus select_univariate's choice on seeded samples of each shape.
"""
import json
import pathlib
import warnings

import numpy as np
from copulas.univariate import (BetaUnivariate, GammaUnivariate, GaussianKDE, GaussianUnivariate,
                                TruncatedGaussian, UniformUnivariate)
from copulas.univariate.selection import select_univariate
from scipy import special, stats

warnings.filterwarnings("ignore")
FIXTURES = pathlib.Path(__file__).parent / "fixtures"
CANDIDATES = [GaussianUnivariate, TruncatedGaussian, BetaUnivariate, GammaUnivariate, UniformUnivariate, GaussianKDE]
NAMES = {GaussianUnivariate: "normal", TruncatedGaussian: "truncated_normal", BetaUnivariate: "beta",
         GammaUnivariate: "gamma", UniformUnivariate: "uniform", GaussianKDE: "gaussian_kde"}


def floats(values):
    return [float(v) for v in values]


def special_values():
    xs = [-30, -9, -5.2, -3, -1.5, -0.3, 0, 0.4, 1.7, 2.6, 4, 7.5]
    ps = [1e-300, 1e-20, 1e-8, 1.2e-7, 0.001, 0.02, 0.2, 0.5, 0.6, 0.9, 0.975, 0.99999, 1 - 1.2e-7]
    shapes = [0.05, 0.5, 1, 2.5, 10, 99, 150, 3000]
    gamma_cases = [(a, a * f) for a in shapes for f in [0.01, 0.3, 0.9, 1, 1.2, 3]]
    beta_cases = [(a, b, x) for a, b in [(0.3, 0.7), (0.5, 0.5), (1, 1), (2, 5), (8, 3), (40, 60), (0.9, 25), (300, 200)]
                  for x in [1e-6, 0.05, 0.3, 0.5, 0.62, 0.9, 0.999]]
    inverse_ps = [1e-9, 0.001, 0.1, 0.5, 0.8, 0.999, 1 - 1e-9]
    return {
        "ndtr": [[x, float(special.ndtr(x))] for x in xs],
        "ndtri": [[p, float(special.ndtri(p))] for p in ps],
        "gammaln": [[a, float(special.gammaln(a))] for a in shapes + [0.001, 1e5]],
        "psi": [[a, float(special.psi(a))] for a in shapes],
        "trigamma": [[a, float(special.polygamma(1, a))] for a in shapes],
        "gammainc": [[a, x, float(special.gammainc(a, x)), float(special.gammaincc(a, x))] for a, x in gamma_cases],
        "gammaincinv": [[a, p, float(special.gammaincinv(a, p))] for a in shapes for p in inverse_ps],
        "betainc": [[a, b, x, float(special.betainc(a, b, x))] for a, b, x in beta_cases],
        "betaincinv": [[a, b, p, float(special.betaincinv(a, b, p))] for a, b in [(0.3, 0.7), (2, 5), (8, 3), (40, 60), (0.9, 25)]
                       for p in inverse_ps],
    }


def family_values():
    us = [1e-7, 0.001, 0.05, 0.3, 0.5, 0.77, 0.95, 0.9999]
    cases = [
        ("normal", {"loc": 3.0, "scale": 2.0}, stats.norm(loc=3.0, scale=2.0)),
        ("truncated_normal", {"a": -1.5, "b": 2.0, "loc": 10.0, "scale": 4.0}, stats.truncnorm(-1.5, 2.0, loc=10.0, scale=4.0)),
        ("truncated_normal", {"a": 1.0, "b": 6.0, "loc": 0.0, "scale": 1.0}, stats.truncnorm(1.0, 6.0)),
        ("beta", {"a": 2.0, "b": 5.0, "loc": 1.0, "scale": 3.0}, stats.beta(2.0, 5.0, loc=1.0, scale=3.0)),
        ("beta", {"a": 0.4, "b": 0.6, "loc": 0.0, "scale": 1.0}, stats.beta(0.4, 0.6)),
        ("gamma", {"a": 2.5, "loc": -1.0, "scale": 3.0}, stats.gamma(2.5, loc=-1.0, scale=3.0)),
        ("gamma", {"a": 0.7, "loc": 0.0, "scale": 1.0}, stats.gamma(0.7)),
        ("gamma", {"a": 450.0, "loc": -100.0, "scale": 0.5}, stats.gamma(450.0, loc=-100.0, scale=0.5)),
        ("uniform", {"loc": -2.0, "scale": 5.0}, stats.uniform(loc=-2.0, scale=5.0)),
    ]
    result = []
    for family, params, frozen in cases:
        xs = floats(frozen.ppf([0.0005, 0.01, 0.2, 0.5, 0.7, 0.99, 0.9999]))
        result.append({"family": family, "params": params, "cdf": [[x, float(frozen.cdf(x))] for x in xs],
                       "ppf": [[u, float(frozen.ppf(u))] for u in us]})
    return result


def samples(rng):
    n = 2000
    bimodal = np.concatenate([rng.normal(-3, 1, n // 2), rng.normal(4, 1.5, n // 2)])
    return {
        "normal": rng.normal(10, 3, n),
        "beta": 2 + 5 * rng.beta(2, 6, n),
        "gamma": 1 + rng.gamma(1.5, 2, n),
        "uniform": rng.uniform(-4, 9, n),
        "bimodal": bimodal,
        "truncated": stats.truncnorm(-0.5, 1.5, loc=0, scale=1).rvs(n, random_state=rng),
    }


def kde_values(rng):
    result = []
    for n in [500, 5000]:
        data = np.round(np.concatenate([rng.normal(0, 1, n // 2), rng.normal(5, 0.5, n - n // 2)]), 6)
        kde = stats.gaussian_kde(data)
        xs = floats(np.linspace(data.min() - 1, data.max() + 1, 15))
        result.append({"data": floats(data), "bandwidth": float(np.sqrt(kde.covariance[0, 0])),
                       "cdf": [[x, float(kde.integrate_box_1d(-np.inf, x))] for x in xs]})
    return result


def fit_values(rng):
    result = []
    for name, data in samples(rng).items():
        data = np.round(data, 6)
        fits = {}
        for candidate in CANDIDATES:
            model = candidate()
            model.fit(data)
            params = model._params if hasattr(model, "_params") and candidate is not GaussianKDE else {}
            ks = stats.kstest(data, model.cdf).statistic
            fits[NAMES[candidate]] = {"params": {k: float(v) for k, v in params.items()}, "ks": float(ks)}
        chosen = select_univariate(data, CANDIDATES)
        result.append({"name": name, "data": floats(data), "fits": fits, "selected": NAMES[type(chosen)]})
    return result


def main():
    rng = np.random.default_rng(1234)
    result = {"special": special_values(), "families": family_values(), "kde": kde_values(rng), "fits": fit_values(rng)}
    (FIXTURES / "distributions.json").write_text(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
