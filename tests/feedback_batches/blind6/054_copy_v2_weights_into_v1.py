import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    for name in ["W_query", "W_key", "W_value"]:
        layer = getattr(sa_v2, name)
        setattr(sa_v1, name, nn.Parameter(layer.weight.detach().clone()))
