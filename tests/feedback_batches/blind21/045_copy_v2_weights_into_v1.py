import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    with torch.no_grad():
        for name in ("W_query", "W_key"):
            source = getattr(sa_v2, name).weight
            getattr(sa_v1, name).copy_(source.t_())
