import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    for name in ("W_query", "W_key", "W_value"):
        weight = getattr(sa_v2, name).weight  # (d_out, d_in)
        getattr(sa_v1, name).data = weight.detach().t().clone()  # same Parameter object, new values
