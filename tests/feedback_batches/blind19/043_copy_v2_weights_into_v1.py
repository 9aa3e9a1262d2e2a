from torch import nn


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Give sa_v1 new parameters holding the transposes of sa_v2's weights."""
    for name in ("W_query", "W_key", "W_value"):
        weight = getattr(sa_v2, name).weight  # (d_out, d_in)
        setattr(sa_v1, name, nn.Parameter(weight.detach().T.clone()))  # (d_in, d_out), own storage
