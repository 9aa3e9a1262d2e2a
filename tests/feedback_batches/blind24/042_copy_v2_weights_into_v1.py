import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad():
        sa_v2.W_query.weight.copy_(sa_v1.W_query.T)
        sa_v2.W_key.weight.copy_(sa_v1.W_key.T)
        sa_v2.W_value.weight.copy_(sa_v1.W_value.T)
