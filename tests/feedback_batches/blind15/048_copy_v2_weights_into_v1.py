import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    for name in ("W_query", "W_key", "W_value"):
        layer = getattr(sa_v2, name)
        layer.weight = nn.Parameter(layer.weight.detach().T.contiguous())
        setattr(sa_v1, name, layer.weight)
