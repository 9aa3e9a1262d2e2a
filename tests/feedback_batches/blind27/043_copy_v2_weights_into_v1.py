import torch


@torch.no_grad()
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    for v1_param, layer in zip((sa_v1.W_query, sa_v1.W_key, sa_v1.W_value),
                               (sa_v2.W_query, sa_v2.W_key, sa_v2.W_value)):
        v1_param.copy_(layer.weight.t())  # x @ W == x @ A.T: W is A transposed
