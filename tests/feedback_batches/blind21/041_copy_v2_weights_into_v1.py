import torch
from torch.nn.utils import vector_to_parameters


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    layers = (sa_v2.W_query, sa_v2.W_key, sa_v2.W_value)
    # nn.Linear stores A with y = x A^T, so v1's W = A^T, flattened in v1's parameter order
    flat = torch.cat([layer.weight.detach().T.reshape(-1) for layer in layers])
    vector_to_parameters(flat, [sa_v1.W_query, sa_v1.W_key, sa_v1.W_value])
