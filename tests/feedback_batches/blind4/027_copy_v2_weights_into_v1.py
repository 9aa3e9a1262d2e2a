import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            target = getattr(sa_v1, name)  # (d_in, d_out)
            source = getattr(sa_v2, name).weight  # (d_out, d_in)
            target.copy_(source.reshape(target.shape))  # bring it into v1's shape
