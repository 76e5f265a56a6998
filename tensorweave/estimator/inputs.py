"""tf.estimator.inputs: input_fns from NumPy arrays (numpy_input_fn) and pandas DataFrames (pandas_input_fn)."""

import collections

import numpy as np

__all__ = ["numpy_input_fn", "pandas_input_fn"]


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1):
    """An input_fn yielding batches of `x` (an array or a dict of arrays) and `y`.

    num_epochs=None repeats forever (batches run across epoch boundaries, in order when
    shuffle=False, as TF's feeding queue does); otherwise the last batch may be short and the
    input ends with OutOfRangeError. shuffle=True shuffles through a buffer of queue_capacity
    examples (TF uses a RandomShuffleQueue there, so shuffled orders differ from TF's)."""
    if not isinstance(shuffle, bool):
        raise ValueError(f"shuffle must be provided and explicitly set as boolean (it is recommended to set it "
                         f"as True for training); got {shuffle}")

    def input_fn():
        from ..data import Dataset
        from ..data.iterator_ops import one_shot_iterator
        if isinstance(x, dict):
            ordered = collections.OrderedDict(sorted((k, np.asarray(v)) for k, v in x.items()))
            lengths = {len(v) for v in ordered.values()}
        else:
            ordered = np.asarray(x)
            lengths = {len(ordered)}
        if y is not None:
            if isinstance(y, dict):
                ys = collections.OrderedDict(sorted((k, np.asarray(v)) for k, v in y.items()))
                if isinstance(x, dict) and set(ys) & set(ordered):
                    raise ValueError(f"{set(ys) & set(ordered)} duplicate keys are found in both x and y")
                lengths |= {len(v) for v in ys.values()}
            else:
                ys = np.asarray(y)
                lengths.add(len(ys))
        if len(lengths) != 1:
            raise ValueError(f"Length of tensors in x and y is mismatched. All elements in x and y must have the "
                             f"same length. Lengths: {sorted(lengths)}")
        with _scope("enqueue_input"):
            data = (ordered, ys) if y is not None else ordered
            ds = Dataset.from_tensor_slices(data)
            if shuffle:
                ds = ds.shuffle(queue_capacity)
            ds = ds.repeat(num_epochs).batch(batch_size)
        # (TF's numpy_input_fn feeds through queues: its iterator draws no op seed)
        out = one_shot_iterator(ds, draw_seed=False).get_next()
        if y is None:
            return dict(out) if isinstance(x, dict) else out
        feats, labels = out
        return (dict(feats) if isinstance(x, dict) else feats), (dict(labels) if isinstance(y, dict) else labels)

    return input_fn


def _scope(name):
    from ..framework.graph import name_scope
    return name_scope(name)


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1,
                    target_column="target"):
    """An input_fn over a pandas DataFrame `x` (one feature per column) and Series `y`, batched as
    numpy_input_fn batches; needs pandas, as TF's does."""
    try:
        import pandas as pd
    except ImportError:
        raise TypeError("pandas_input_fn should not be called without pandas installed") from None
    if not isinstance(shuffle, bool):
        raise ValueError(f"shuffle must be provided and explicitly set as boolean (it is recommended to set it "
                         f"as True for training); got {shuffle}")
    if not isinstance(x, pd.DataFrame):
        raise TypeError(f"x must be a pandas DataFrame; got {type(x)}")
    features = {str(c): x[c].values for c in x.columns}
    labels = None
    if y is not None:
        if target_column in features:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame already has a column "
                             f"with that name: {list(x.columns)}")
        if not np.array_equal(np.asarray(x.index), np.asarray(y.index)):
            raise ValueError(f"Index for x and y are mismatched.\nIndex for x: {x.index}\nIndex for y: {y.index}\n")
        labels = {str(c): y[c].values for c in y.columns} if isinstance(y, pd.DataFrame) else y.values
    return numpy_input_fn(features, labels, batch_size=batch_size, num_epochs=num_epochs, shuffle=shuffle,
                          queue_capacity=queue_capacity, num_threads=num_threads)
