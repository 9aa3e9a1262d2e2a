import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    # the layers of v2 in creation order: W_query, W_key, W_value
    for name, layer in sa_v2.named_children():
        sa_v1._parameters[name] = nn.Parameter(layer.weight.detach().T.clone())
