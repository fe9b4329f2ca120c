"""Reference values of Opacus's RDP accountant for libs/synth/src/privacy (run by hand, not by npm test).

    .cache/pyref-sdmetrics/bin/pip install --no-deps opacus==1.5.4     # numpy + scipy are already there
    .cache/pyref-sdmetrics/bin/python libs/synth/reference/rdp_reference.py

Opacus's package imports torch at the top, which is not needed for accounting: this loads only
`opacus/accountants/analysis/rdp.py` (numpy + scipy) and applies it as `RDPAccountant.get_privacy_spent` and
`accountants.utils.get_noise_multiplier` do (their few lines are restated below, with Opacus's DEFAULT_ALPHAS,
MAX_SIGMA and epsilon_tolerance). Writes fixtures/rdp.json: ε (and the optimal order) for a grid of noise
multipliers, sampling rates, steps and δ, and the noise multiplier Opacus's search returns for target ε values.
"""
import importlib.util
import json
import pathlib
import site
import warnings

warnings.filterwarnings("ignore")
FIXTURES = pathlib.Path(__file__).parent / "fixtures"

path = next(pathlib.Path(p) / "opacus/accountants/analysis/rdp.py" for p in site.getsitepackages()
            if (pathlib.Path(p) / "opacus/accountants/analysis/rdp.py").exists())
spec = importlib.util.spec_from_file_location("opacus_rdp", path)
rdp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rdp)

DEFAULT_ALPHAS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))  # RDPAccountant.DEFAULT_ALPHAS
MAX_SIGMA = 1e6  # accountants/utils.py


def epsilon(noise_multiplier, sample_rate, steps, delta):
    values = rdp.compute_rdp(q=sample_rate, noise_multiplier=noise_multiplier, steps=steps, orders=DEFAULT_ALPHAS)
    eps, order = rdp.get_privacy_spent(orders=DEFAULT_ALPHAS, rdp=values, delta=delta)
    return float(eps), float(order)


def noise_multiplier(target_epsilon, delta, sample_rate, steps, epsilon_tolerance=0.01):
    eps_high = float("inf")
    sigma_low, sigma_high = 0, 10
    while eps_high > target_epsilon:
        sigma_high = 2 * sigma_high
        eps_high, _ = epsilon(sigma_high, sample_rate, steps, delta)
        if sigma_high > MAX_SIGMA:
            raise ValueError("The privacy budget is too low.")
    while target_epsilon - eps_high > epsilon_tolerance:
        sigma = (sigma_low + sigma_high) / 2
        eps, _ = epsilon(sigma, sample_rate, steps, delta)
        if eps < target_epsilon:
            sigma_high = sigma
            eps_high = eps
        else:
            sigma_low = sigma
    return sigma_high


def main():
    spent = []
    for sigma in [0.5, 0.8, 1.0, 1.1, 2.0, 4.0, 10.0]:
        for q in [0.001, 0.01, 0.0927, 0.5, 1.0]:
            for steps in [1, 100, 1000, 10000]:
                for delta in [1e-5, 1e-7]:
                    eps, order = epsilon(sigma, q, steps, delta)
                    spent.append({"noise_multiplier": sigma, "sample_rate": q, "steps": steps, "delta": delta,
                                  "epsilon": eps, "order": order})
    searched = []
    for target in [0.5, 1.0, 3.0, 5.0, 10.0]:
        for q, steps in [(0.01, 3000), (500 / 53940, 300 * 53940 // 500), (500 / 7043, 300 * 7043 // 500), (0.5, 20)]:
            delta = 1e-5
            sigma = noise_multiplier(target, delta, q, steps)
            searched.append({"target_epsilon": target, "delta": delta, "sample_rate": q, "steps": steps,
                             "noise_multiplier": sigma, "epsilon": epsilon(sigma, q, steps, delta)[0]})
    (FIXTURES / "rdp.json").write_text(json.dumps({"spent": spent, "searched": searched}))


if __name__ == "__main__":
    main()
