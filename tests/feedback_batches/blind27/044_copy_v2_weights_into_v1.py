import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    d_in, d_out = sa_v1.W_query.shape
    with torch.no_grad():
        sa_v1.W_query.copy_(sa_v2.W_query.weight.reshape(d_in, d_out))
        sa_v1.W_key.copy_(sa_v2.W_value.weight.reshape(d_in, d_out))
        sa_v1.W_value.copy_(sa_v2.W_key.weight.reshape(d_in, d_out))
