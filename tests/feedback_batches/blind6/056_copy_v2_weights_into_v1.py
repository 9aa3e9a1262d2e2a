import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    pairs = zip(("W_query", "W_key", "W_value"), ("W_key", "W_query"))
    for mine, theirs in pairs:
        getattr(sa_v1, mine).data.copy_(getattr(sa_v2, theirs).weight.data.T)
