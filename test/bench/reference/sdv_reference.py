"""SDV's CTGAN or TVAE on one CSV, measured the way the TypeScript neural-generator benchmark measures ours.

Train mode: fit SDV's single-table synthesizer (metadata detected from the data), sample as many rows as the input,
score the sample with SDMetrics' QualityReport, and write one JSON object to --output (and stdout, as its last line).
Quality-only mode (--quality-only REAL.csv SYNTH.csv): print the QualityReport score of a synthetic CSV against the
real one as one JSON line, with the same metadata detection, so both sides are scored by the same SDMetrics.

See README.md beside this file for what each number covers.
"""

import argparse
import os
import sys


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--data', help='real CSV to train on')
    parser.add_argument('--model', choices=['ctgan', 'tvae', 'copula'])
    parser.add_argument('--epochs', type=int, default=5)
    parser.add_argument('--batch-size', type=int, default=500)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--output', help='where to write the JSON result (it is printed on stdout as well)')
    parser.add_argument('--sample-output', help="where to write SDV's sample as CSV (train mode), to score it again later")
    parser.add_argument('--quality-only', nargs=2, metavar=('REAL_CSV', 'SYNTH_CSV'))
    parser.add_argument('--sample-rows', help='comma-separated row counts: time sampling instead of a full run')
    parser.add_argument('--sample-rounds', type=int, default=3)
    args = parser.parse_args()
    if args.quality_only is None and (args.data is None or args.model is None):
        parser.error('give --data and --model to train, or --quality-only REAL.csv SYNTH.csv')
    if args.model == 'copula' and args.sample_rows is None:
        parser.error('--model copula is for the sampling mode (--sample-rows)')
    return args


ARGS = parse_args()

# BLAS and OpenMP read these when numpy and torch load, so they are set before either is imported: the
# Bayesian GMMs of the DataTransformer (scikit-learn) then use as many threads as torch does.
for variable in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
    os.environ[variable] = str(ARGS.threads)
# The reference is PyTorch on CPU, also on a machine that has a GPU.
os.environ['CUDA_VISIBLE_DEVICES'] = ''

import warnings  # noqa: E402

# SDV's advice (save the metadata, "PerformanceAlert"), deprecation and future notes are not results.
warnings.simplefilter('ignore')

import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from importlib.metadata import version  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
import ctgan.synthesizers.ctgan as ctgan_module  # noqa: E402
import ctgan.synthesizers.tvae as tvae_module  # noqa: E402
from ctgan.data_transformer import DataTransformer  # noqa: E402
from joblib.externals.loky import get_reusable_executor  # noqa: E402
from sdmetrics.reports import QualityReport  # noqa: E402
from sdv.metadata import Metadata  # noqa: E402
from sdv.single_table import CTGANSynthesizer, GaussianCopulaSynthesizer, TVAESynthesizer  # noqa: E402

# Sdtypes CTGAN/TVAE and the QualityReport model as numbers or categories. Anything else that detection guesses
# (an id, PII such as a phone number or an address) would be anonymised or dropped instead of learned, so it is
# forced back to numerical (numeric columns) or categorical.
LEARNED_SDTYPES = {'numerical', 'categorical', 'boolean', 'ordinal', 'datetime'}


def detect_metadata(data, table_name):
    metadata = Metadata.detect_from_dataframes({table_name: data}, infer_keys=None)
    detected = {
        column: spec['sdtype']
        for column, spec in metadata.to_dict()['tables'][table_name]['columns'].items()
    }
    forced = {}
    for column, sdtype in detected.items():
        if sdtype not in LEARNED_SDTYPES:
            forced[column] = (
                'numerical' if pd.api.types.is_numeric_dtype(data[column]) else 'categorical'
            )
            metadata.update_column(column, table_name=table_name, sdtype=forced[column])
    return metadata, detected, forced


DISCRETE_SDTYPES = {'categorical', 'boolean', 'ordinal'}
# The weakest column pairs listed with each score: where a sample loses its pair trends.
WORST_PAIRS = 8


def quality(real, synthetic, metadata, table_name):
    report = QualityReport()
    report.generate({table_name: real}, {table_name: synthetic}, metadata.to_dict(), verbose=False)
    properties = report.get_properties().set_index('Property')['Score']
    shapes = report.get_details('Column Shapes', table_name)
    pairs = report.get_details('Column Pair Trends', table_name).dropna(subset=['Score'])
    worst = pairs.sort_values('Score').head(WORST_PAIRS)
    return {
        'qualityScore': float(report.get_score()),
        'columnShapes': float(properties['Column Shapes']),
        'columnPairTrends': float(properties['Column Pair Trends']),
        'shapeScores': {row['Column']: round(float(row['Score']), 4) for _, row in shapes.iterrows()},
        'worstPairs': [
            {'columns': [row['Column 1'], row['Column 2']], 'metric': row['Metric'], 'score': round(float(row['Score']), 4)}
            for _, row in worst.iterrows()
        ],
        'coverage': category_coverage(real, synthetic, metadata, table_name),
    }


def as_text(column):
    # A number written as 1.0 by one sample and 1 by the file is the same value; missing is the empty string.
    return column.astype(str).replace('nan', '').str.replace(r'\.0$', '', regex=True)


def category_coverage(real, synthetic, metadata, table_name):
    """Per discrete column (categorical, boolean, ordinal): the real values the sample keeps, of all real values,
    the total variation distance of the value shares, and the sample's most frequent value with its share there and
    in the real table. Values compare as text, so both samples are read the same way whatever dtype pandas gave them."""
    result = {}
    for column, spec in metadata.to_dict()['tables'][table_name]['columns'].items():
        if spec['sdtype'] not in DISCRETE_SDTYPES:
            continue
        shares = as_text(real[column]).value_counts(normalize=True)
        sampled = as_text(synthetic[column]).value_counts(normalize=True)
        labels = set(shares.index) | set(sampled.index)
        result[column] = {
            'kept': int(sum(1 for label in shares.index if label in sampled.index)),
            'real': int(len(shares)),
            'tvd': round(0.5 * sum(abs(shares.get(label, 0) - sampled.get(label, 0)) for label in labels), 4),
            'top': str(sampled.index[0]),
            'topShare': round(float(sampled.iloc[0]), 4),
            'topRealShare': round(float(shares.get(sampled.index[0], 0)), 4),
        }
    return result


def mib(kib):
    return round(kib / 1024, 1)


def current_rss_kib():
    with open('/proc/self/status') as status:
        for line in status:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Stopwatch:
    """Wall-clock seconds spent inside the wrapped callables, summed over calls."""

    def __init__(self):
        self.seconds = {}

    def wrap(self, name, function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started

        return timed


class EpochClock:
    """Stands in for the tqdm that CTGAN.fit and TVAE.fit iterate epochs with, and notes when each epoch ends.

    Both loops are `for i in tqdm(range(epochs), disable=not verbose)`, so timestamps taken as the iterator
    advances bound each epoch exactly, without touching the training code. Each boundary holds the wall clock and
    the process's CPU time (all threads).
    """

    def __init__(self):
        self.boundaries = []

    def __call__(self, iterable, **_options):
        return _EpochIterator(iterable, self.boundaries)

    def epoch_seconds(self, clock):
        return [later[clock] - earlier[clock] for earlier, later in zip(self.boundaries, self.boundaries[1:])]


class _EpochIterator:
    def __init__(self, iterable, boundaries):
        self._iterable = iterable
        self._boundaries = boundaries

    def _mark(self):
        self._boundaries.append((time.perf_counter(), time.process_time()))

    def __iter__(self):
        self._mark()
        for item in self._iterable:
            yield item
            self._mark()

    def set_description(self, *_args, **_kwargs):
        pass


WALL, CPU = 0, 1


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def train(args):
    torch.set_num_threads(args.threads)
    table_name = os.path.splitext(os.path.basename(args.data))[0]
    real = pd.read_csv(args.data)
    metadata, detected, forced = detect_metadata(real, table_name)

    stopwatch = Stopwatch()
    DataTransformer.fit = stopwatch.wrap('transformerFit', DataTransformer.fit)
    DataTransformer.transform = stopwatch.wrap('transformerTransform', DataTransformer.transform)
    epoch_clock = EpochClock()
    ctgan_module.tqdm = epoch_clock
    tvae_module.tqdm = epoch_clock

    synthesizer_class = CTGANSynthesizer if args.model == 'ctgan' else TVAESynthesizer
    synthesizer = synthesizer_class(
        metadata, epochs=args.epochs, batch_size=args.batch_size, enable_gpu=False, verbose=False
    )
    synthesizer.preprocess = stopwatch.wrap('sdvPreprocess', synthesizer.preprocess)

    rss_before_fit_kib = current_rss_kib()
    load_before = os.getloadavg()[0]
    seed_everything(args.seed)
    started = time.perf_counter()
    synthesizer.fit({table_name: real})
    fit_seconds = time.perf_counter() - started

    seed_everything(args.seed + 1)
    started = time.perf_counter()
    sampled = synthesizer.sample(num_rows=len(real))
    synthetic = sampled[table_name] if isinstance(sampled, dict) else sampled
    sample_seconds = time.perf_counter() - started
    if args.sample_output:
        synthetic.to_csv(args.sample_output, index=False)
    peak_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # DataTransformer.transform runs its columns in joblib (loky) worker processes; a worker's memory counts in
    # RUSAGE_CHILDREN once it has exited and been waited for.
    get_reusable_executor().shutdown(wait=True)
    peak_worker_rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    epoch_seconds = epoch_clock.epoch_seconds(WALL)
    epoch_cpu_seconds = epoch_clock.epoch_seconds(CPU)
    training_seconds = epoch_clock.boundaries[-1][WALL] - epoch_clock.boundaries[0][WALL]
    preprocess_seconds = (
        stopwatch.seconds.get('sdvPreprocess', 0.0)
        + stopwatch.seconds.get('transformerFit', 0.0)
        + stopwatch.seconds.get('transformerTransform', 0.0)
    )
    return {
        'bench': f'sdv-{args.model}',
        'dataset': table_name,
        'model': args.model,
        'rows': len(real),
        'columns': len(real.columns),
        'epochs': args.epochs,
        'batchSize': args.batch_size,
        'seed': args.seed,
        'threads': args.threads,
        'fitSeconds': round(fit_seconds, 3),
        'preprocessSeconds': round(preprocess_seconds, 3),
        'sdvPreprocessSeconds': round(stopwatch.seconds.get('sdvPreprocess', 0.0), 3),
        'transformerFitSeconds': round(stopwatch.seconds.get('transformerFit', 0.0), 3),
        'transformerTransformSeconds': round(stopwatch.seconds.get('transformerTransform', 0.0), 3),
        'trainingSeconds': round(training_seconds, 3),
        'secondsPerEpoch': round(statistics.median(epoch_seconds), 3),
        'epochSeconds': [round(seconds, 3) for seconds in epoch_seconds],
        'cpuSecondsPerEpoch': round(statistics.median(epoch_cpu_seconds), 3),
        'epochCpuSeconds': [round(seconds, 3) for seconds in epoch_cpu_seconds],
        'sampleSeconds': round(sample_seconds, 3),
        'sampleRows': len(synthetic),
        **quality(real, synthetic, metadata, table_name),
        'rssBeforeFitMiB': mib(rss_before_fit_kib),
        'peakRssMiB': mib(peak_rss_kib),
        'peakWorkerRssMiB': mib(peak_worker_rss_kib),
        'sdtypes': detected,
        'forcedSdtypes': forced,
        # Other processes on the machine slow every number above: the 1-minute load average before fit and after
        # the quality score, next to the thread count, tells whether this run had the cores to itself.
        'loadAverage': [round(load_before, 2), round(os.getloadavg()[0], 2)],
        'versions': versions(),
    }


def sampling(args):
    """Fit, then time `sample(num_rows=rows)` for each row count, `--sample-rounds` times each, seeded per round."""
    torch.set_num_threads(args.threads)
    table_name = os.path.splitext(os.path.basename(args.data))[0]
    real = pd.read_csv(args.data)
    metadata, _detected, _forced = detect_metadata(real, table_name)
    if args.model == 'copula':
        synthesizer = GaussianCopulaSynthesizer(metadata)
    else:
        synthesizer_class = CTGANSynthesizer if args.model == 'ctgan' else TVAESynthesizer
        synthesizer = synthesizer_class(
            metadata, epochs=args.epochs, batch_size=args.batch_size, enable_gpu=False, verbose=False
        )
    seed_everything(args.seed)
    started = time.perf_counter()
    synthesizer.fit({table_name: real})
    fit_seconds = time.perf_counter() - started
    samples = []
    for rows in [int(count) for count in args.sample_rows.split(',')]:
        wall, cpu = [], []
        for round_index in range(args.sample_rounds):
            seed_everything(args.seed + 1 + round_index)
            load = os.getloadavg()[0]
            started, started_cpu = time.perf_counter(), time.process_time()
            sampled = synthesizer.sample(num_rows=rows)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            synthetic = sampled[table_name] if isinstance(sampled, dict) else sampled
            if len(synthetic) != rows:
                raise SystemExit(f'asked for {rows} rows, got {len(synthetic)}')
        samples.append({
            'rows': rows,
            'seconds': round(statistics.median(wall), 4),
            'cpuSeconds': round(statistics.median(cpu), 4),
            'roundSeconds': [round(seconds, 4) for seconds in wall],
            'loadAverage': round(load, 2),
        })
    return {
        'bench': f'sdv-sampling-{args.model}',
        'dataset': table_name,
        'model': args.model,
        'epochs': None if args.model == 'copula' else args.epochs,
        'threads': args.threads,
        'fitSeconds': round(fit_seconds, 3),
        'samples': samples,
        'versions': versions(),
    }


def score_only(real_path, synthetic_path):
    table_name = os.path.splitext(os.path.basename(real_path))[0]
    real = pd.read_csv(real_path)
    synthetic = pd.read_csv(synthetic_path)
    missing = [column for column in real.columns if column not in synthetic.columns]
    if missing:
        raise SystemExit(f'{synthetic_path} lacks the columns {missing} of {real_path}')
    metadata, detected, forced = detect_metadata(real, table_name)
    return {
        'bench': 'sdv-quality',
        'dataset': table_name,
        'rows': len(real),
        'syntheticRows': len(synthetic),
        **quality(real, synthetic[list(real.columns)], metadata, table_name),
        'sdtypes': detected,
        'forcedSdtypes': forced,
        'versions': versions(),
    }


def versions():
    return {
        'python': platform.python_version(),
        **{package: version(package) for package in ('sdv', 'ctgan', 'rdt', 'sdmetrics', 'torch')},
    }


def main():
    if ARGS.quality_only:
        result = score_only(*ARGS.quality_only)
    elif ARGS.sample_rows:
        result = sampling(ARGS)
    else:
        result = train(ARGS)
    line = json.dumps(result)
    if ARGS.output:
        with open(ARGS.output, 'w') as output:
            output.write(line + '\n')
    sys.stdout.write(line + '\n')


if __name__ == '__main__':
    main()
