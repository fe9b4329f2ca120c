"""SDV's TVAE side of test/bench/tvae-coverage.bench.ts: category coverage and total variation distance per column.

    <reference venv>/bin/python test/bench/reference/sdv_tvae_coverage.py --data CSV --epochs 30 --seed 1

Trains SDV's TVAESynthesizer (metadata detected as sdv_reference.py detects it, batch 500, one torch thread), samples
as many rows as the CSV holds, and prints one JSON line: per column of the CSV that is text with at most 60 values,
the real values the sample keeps, of all real values, the total variation distance of the value shares, and the
sample's most frequent value with its share there and in the real data. Values are compared as the CSV text (missing
as the empty string), so a column SDV models as a number (telco's 0/1 columns) is compared by its written values.
"""

import argparse
import json
import os
import random
import warnings

os.environ['CUDA_VISIBLE_DEVICES'] = ''
warnings.simplefilter('ignore')

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
from sdv.metadata import Metadata  # noqa: E402
from sdv.single_table import TVAESynthesizer  # noqa: E402

LEARNED_SDTYPES = {'numerical', 'categorical', 'boolean', 'ordinal', 'datetime'}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--data', required=True)
    parser.add_argument('--epochs', type=int, default=30)
    parser.add_argument('--seed', type=int, default=1)
    return parser.parse_args()


def metadata_of(real, name):
    metadata = Metadata.detect_from_dataframes({name: real}, infer_keys=None)
    for column, spec in metadata.to_dict()['tables'][name]['columns'].items():
        if spec['sdtype'] not in LEARNED_SDTYPES:
            sdtype = 'numerical' if pd.api.types.is_numeric_dtype(real[column]) else 'categorical'
            metadata.update_column(column, table_name=name, sdtype=sdtype)
    return metadata


def as_text(column):
    # A number written as 1.0 by the sample and 1 by the file is the same value.
    return column.astype(str).replace('nan', '').str.replace(r'\.0$', '', regex=True)


def coverage(real_text, sample_text):
    real = real_text.value_counts(normalize=True)
    sample = sample_text.value_counts(normalize=True)
    labels = set(real.index) | set(sample.index)
    return {
        'kept': int(sum(1 for label in real.index if label in sample.index)),
        'real': int(len(real)),
        'tvd': round(0.5 * sum(abs(real.get(label, 0) - sample.get(label, 0)) for label in labels), 4),
        'top': sample.index[0],
        'topShare': round(float(sample.iloc[0]), 4),
        'topRealShare': round(float(real.get(sample.index[0], 0)), 4),
    }


def main():
    args = parse_args()
    torch.set_num_threads(1)
    name = os.path.splitext(os.path.basename(args.data))[0]
    real = pd.read_csv(args.data, keep_default_na=False, dtype=str)
    typed = pd.read_csv(args.data)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    synthesizer = TVAESynthesizer(metadata_of(typed, name), epochs=args.epochs, batch_size=500, enable_gpu=False)
    synthesizer.fit({name: typed})
    np.random.seed(args.seed + 1)
    torch.manual_seed(args.seed + 1)
    sampled = synthesizer.sample(num_rows=len(typed))
    sample = sampled[name] if isinstance(sampled, dict) else sampled
    categorical = [
        column for column in real.columns
        if real[column].nunique() <= 60 and not pd.api.types.is_numeric_dtype(typed[column].dtype)
        or set(real[column].unique()) <= {'0', '1', ''}
    ]
    columns = {column: coverage(as_text(typed[column]), as_text(sample[column])) for column in categorical}
    print(json.dumps({'bench': 'tvae-coverage', 'dataset': name, 'epochs': args.epochs, 'seed': args.seed, 'reading': 'SDV', 'columns': columns}))


if __name__ == '__main__':
    main()
