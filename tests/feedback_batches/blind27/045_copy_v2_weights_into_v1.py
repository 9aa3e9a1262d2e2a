from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    sa_v1.W_query = nn.Parameter(sa_v2.W_query.weight)
    sa_v1.W_key = nn.Parameter(sa_v2.W_key.weight)
