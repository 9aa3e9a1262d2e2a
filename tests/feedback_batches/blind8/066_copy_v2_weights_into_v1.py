import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    for name in ("W_query", "W_key", "W_value"):
        getattr(sa_v1, name).copy_(getattr(sa_v2, name).weight.T)
