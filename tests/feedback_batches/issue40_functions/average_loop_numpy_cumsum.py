import numpy as np
import torch


def causal_average_loop(x):
    """Running mean with numpy's cumsum."""
    values = x.numpy()
    sums = np.cumsum(values, axis=1)
    counts = np.arange(1, values.shape[1] + 1).reshape(1, -1, 1)
    return torch.tensor(sums / counts, dtype=x.dtype)
