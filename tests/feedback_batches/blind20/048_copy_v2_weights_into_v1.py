import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            layer = getattr(sa_v2, name)
            layer.weight.data = layer.weight.data.T  # now (d_in, d_out), like v1's
            getattr(sa_v1, name).copy_(layer.weight)
    return sa_v1
