import torch
from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    # v1's state_dict keys are the parameter names; load_state_dict copies into the existing parameters
    sa_v1.load_state_dict({
        "W_query": sa_v2.W_query.weight.detach().t(),
        "W_key": sa_v2.W_key.weight.detach().t(),
        "W_value": sa_v2.W_value.weight.detach().t(),
    })
