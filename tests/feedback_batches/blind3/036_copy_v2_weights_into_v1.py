import torch


@torch.no_grad()
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    for name in ("W_query", "W_key", "W_value"):
        linear = getattr(sa_v2, name)  # nn.Linear, weight (d_out, d_in)
        getattr(sa_v1, name).copy_(linear.weight.mT)  # v1 wants (d_in, d_out)
