import torch


def context_vector(attn_weights, inputs):
    # (d, T) matrix times the (T,) weights: a weighted sum of the rows of inputs
    return torch.mv(inputs.mT, attn_weights.to(inputs.dtype))
