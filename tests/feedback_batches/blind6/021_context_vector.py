import torch


def context_vector(attn_weights, inputs):
    # (d, T) @ (T,) -> (d,)
    return torch.mv(inputs.mT, attn_weights)
