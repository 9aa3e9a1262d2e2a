import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    for name in ("W_query", "W_key", "W_value"):
        # .data swaps the values of v1's own parameter object without autograd seeing it
        getattr(sa_v1, name).data = getattr(sa_v2, name).weight.data.t().clone()
