import numpy as np
import torch


def causal_average_matmul(x):
    T = x.shape[1]
    averaging = np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]
    return torch.as_tensor(averaging, dtype=x.dtype) @ x
