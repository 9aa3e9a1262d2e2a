import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    # nn.Linear stores (d_out, d_in); v1 wants (d_in, d_out): transpose, and copy so nothing is shared
    with torch.no_grad():
        sa_v1.W_query = sa_v2.W_query.weight.T.clone()
        sa_v1.W_key = sa_v2.W_key.weight.T.clone()
        sa_v1.W_value = sa_v2.W_value.weight.T.clone()
