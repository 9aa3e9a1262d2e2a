import torch


def context_vector(attn_weights, inputs):
    z = torch.zeros(inputs.shape[1])
    for w, x_j in zip(attn_weights, inputs):
        z += w * x_j
    return z
