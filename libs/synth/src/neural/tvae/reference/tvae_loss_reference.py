"""Reference values of SDV's TVAE loss for libs/synth/src/neural/tvae (run by hand, not by npm test).

    python libs/synth/src/neural/tvae/reference/tvae_loss_reference.py    # needs: pip install ctgan (with torch)

Calls ctgan's own `_loss_function` (sdv-dev/CTGAN ctgan/synthesizers/tvae.py, ctgan 0.12.1) on a small batch laid
out as its DataTransformer lays rows out (per continuous column a tanh value then a softmax mode span; per discrete
column a softmax span), and writes tvaeLoss.json: the inputs, both loss terms, and the gradients of their sum with
respect to the decoder output, σ, μ and log-variance (what training follows).
"""
import json
import pathlib

import numpy as np
import torch
from ctgan.data_transformer import SpanInfo
from ctgan.synthesizers.tvae import _loss_function

OUT = pathlib.Path(__file__).parent / "tvaeLoss.json"
ROWS = 7
EMBEDDING = 3
FACTOR = 2
# Two continuous columns (3 and 1 modes), a 4-category column, a 2-category one.
OUTPUT_INFO = [
    [SpanInfo(1, "tanh"), SpanInfo(3, "softmax")],
    [SpanInfo(4, "softmax")],
    [SpanInfo(1, "tanh"), SpanInfo(1, "softmax")],
    [SpanInfo(2, "softmax")],
]

rng = np.random.default_rng(20240611)
spans = [span for column in OUTPUT_INFO for span in column]
width = sum(span.dim for span in spans)

x = np.zeros((ROWS, width))
offset = 0
for span in spans:
    if span.activation_fn == "tanh":
        x[:, offset] = rng.uniform(-0.99, 0.99, ROWS)
    else:
        x[np.arange(ROWS), offset + rng.integers(0, span.dim, ROWS)] = 1
    offset += span.dim

recon = rng.normal(0, 1.5, (ROWS, width))
sigmas = rng.uniform(0.05, 0.8, width)
mu = rng.normal(0, 1, (ROWS, EMBEDDING))
logvar = rng.normal(0, 0.5, (ROWS, EMBEDDING))

tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True)
           for name, value in [("recon", recon), ("sigmas", sigmas), ("mu", mu), ("logvar", logvar)]}
reconstruction, divergence = _loss_function(
    tensors["recon"], torch.tensor(x), tensors["sigmas"], tensors["mu"], tensors["logvar"], OUTPUT_INFO, FACTOR
)
(reconstruction + divergence).backward()

OUT.write_text(json.dumps({
    "factor": FACTOR,
    "spans": [{"width": span.dim, "activation": span.activation_fn} for span in spans],
    "x": x.tolist(),
    "recon": recon.tolist(),
    "sigmas": sigmas.tolist(),
    "mu": mu.tolist(),
    "logvar": logvar.tolist(),
    "reconstruction": reconstruction.item(),
    "divergence": divergence.item(),
    "gradients": {name: tensor.grad.tolist() for name, tensor in tensors.items()},
}, indent=1) + "\n")
print(f"wrote {OUT}")
