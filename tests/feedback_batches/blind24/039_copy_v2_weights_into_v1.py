import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    # new parameter objects, each with storage of its own
    sa_v1.W_query = nn.Parameter(sa_v2.W_query.weight.detach().T.clone(memory_format=torch.contiguous_format))
    sa_v1.W_key = nn.Parameter(sa_v2.W_key.weight.detach().T.clone(memory_format=torch.contiguous_format))
    sa_v1.W_value = nn.Parameter(sa_v2.W_value.weight.detach().T.clone(memory_format=torch.contiguous_format))
