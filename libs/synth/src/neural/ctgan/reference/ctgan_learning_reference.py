"""How fast SDV's CTGAN learns the two-mode test data of ctganLearning.unit.spec.ts (run by hand, not by npm test).

    python libs/synth/src/neural/ctgan/reference/ctgan_learning_reference.py [seed]   # needs: pip install ctgan==0.12.1

The same distribution as testing/twoModeTable.ts (2,000 rows; group a/b at 60/40; value N(−5, 0.8²) for a and
N(5, 0.8²) for b; an independent three-way colour and an independent N(10, 2²)), the test's settings (batch 500,
pac 10, networks (128, 128), embedding 64, 500 epochs = 2,000 steps), on one thread. Prints the training time and
the shares the test asserts on: "a" rows with a negative value, "b" rows with a positive one.
"""
import sys
import time

import numpy as np
import pandas as pd
import torch
from ctgan import CTGAN

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
torch.set_num_threads(1)
torch.manual_seed(seed)
np.random.seed(seed)
rng = np.random.default_rng(11)
rows = 2000
group = np.where(rng.random(rows) < 0.6, "a", "b")
data = pd.DataFrame({
    "group": group,
    "value": np.where(group == "a", -5, 5) + 0.8 * rng.normal(size=rows),
    "color": rng.choice(["red", "green", "blue"], rows),
    "other": 10 + 2 * rng.normal(size=rows),
})
model = CTGAN(epochs=500, batch_size=500, generator_dim=(128, 128), discriminator_dim=(128, 128), embedding_dim=64, enable_gpu=False)
started = time.time()
model.fit(data, ["group", "color"])
print(f"training: {time.time() - started:.1f} s")
sample = model.sample(rows)
a = sample[sample.group == "a"]
b = sample[sample.group == "b"]
print(f"share a {len(a) / rows:.3f}; a rows negative {(a.value < 0).mean():.3f}; b rows positive {(b.value > 0).mean():.3f}")
