import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    # the book's way: brand-new parameters holding v2's weights, transposed to (d_in, d_out)
    sa_v1.W_query = nn.Parameter(sa_v2.W_query.weight.detach().t().clone())
    sa_v1.W_key = nn.Parameter(sa_v2.W_key.weight.detach().t().clone())
    sa_v1.W_value = nn.Parameter(sa_v2.W_value.weight.detach().t().clone())
