"""Reference values of SDV's CTGAN networks and critic loss for libs/synth/src/neural/ctgan (run by hand, not by npm test).

    python libs/synth/src/neural/ctgan/reference/ctgan_reference.py    # needs: pip install ctgan==0.12.1 (with torch)

Builds ctgan's own Generator and Discriminator (sdv-dev/CTGAN ctgan/synthesizers/ctgan.py, ctgan 0.12.1) with small
sizes and seeded weights, and writes ctganReference.json: the weights; the generator's raw output for a batch in
training mode (batch norm on the batch's statistics); and the critic's WGAN-GP loss for a real and a fake batch with a
given α per pack (calc_gradient_penalty, λ = 10, pac 2) with its gradients with respect to every discriminator weight
(second order through the penalty). The discriminator runs in eval mode so dropout is off: the TypeScript side then
passes all-ones dropout masks.
"""
import json
import pathlib

import numpy as np
import torch
from ctgan.synthesizers.ctgan import Discriminator, Generator

OUT = pathlib.Path(__file__).parent / "ctganReference.json"
torch.manual_seed(5)
torch.set_default_dtype(torch.float64)

ROWS = 8
PAC = 2
EMBEDDING = 4
CONDITION = 3
DATA = 6
GENERATOR_DIMS = (5, 7)
DISCRIMINATOR_DIMS = (6, 4)


def dense(layer):
    # ours stores x·W + b with W as [inputs, outputs]; torch's Linear keeps [outputs, inputs].
    return {"weight": layer.weight.detach().t().tolist(), "bias": layer.bias.detach().tolist()}


generator = Generator(EMBEDDING + CONDITION, GENERATOR_DIMS, DATA)
for residual in generator.seq[:-1]:
    with torch.no_grad():
        residual.bn.weight.uniform_(0.5, 1.5)
        residual.bn.bias.uniform_(-0.5, 0.5)
generator.train()
generator_input = torch.randn(ROWS, EMBEDDING + CONDITION)
generator_output = generator(generator_input)

discriminator = Discriminator(DATA + CONDITION, DISCRIMINATOR_DIMS, pac=PAC)
discriminator.eval()
real = torch.randn(ROWS, DATA + CONDITION)
# In training the fake rows come from the generator, so the interpolates require a gradient.
fake = torch.randn(ROWS, DATA + CONDITION).requires_grad_()
alphas = torch.rand(ROWS // PAC, 1, 1)

# calc_gradient_penalty draws α with torch.rand(rows // pac, 1, 1): hand it ours.
draw = torch.rand
torch.rand = lambda *args, **kwargs: alphas.clone()
penalty = discriminator.calc_gradient_penalty(real, fake, "cpu", PAC)
torch.rand = draw
wasserstein = -(torch.mean(discriminator(real)) - torch.mean(discriminator(fake)))
discriminator.zero_grad()
penalty.backward(retain_graph=True)
wasserstein.backward()
linears = [module for module in discriminator.seq if isinstance(module, torch.nn.Linear)]

OUT.write_text(json.dumps({
    "rows": ROWS,
    "pac": PAC,
    "generator": {
        "input": generator_input.tolist(),
        "residuals": [
            {**dense(residual.fc), "scale": residual.bn.weight.detach().tolist(), "shift": residual.bn.bias.detach().tolist()}
            for residual in generator.seq[:-1]
        ],
        "output": dense(generator.seq[-1]),
        "raw": generator_output.detach().tolist(),
    },
    "discriminator": {
        "layers": [dense(layer) for layer in linears],
        "real": real.tolist(),
        "fake": fake.detach().tolist(),
        "alphas": alphas.flatten().tolist(),
        "penalty": penalty.item(),
        "wasserstein": wasserstein.item(),
        "gradients": [{"weight": layer.weight.grad.t().tolist(), "bias": layer.bias.grad.tolist()} for layer in linears],
    },
}, indent=1))
print(f"wrote {OUT}")
