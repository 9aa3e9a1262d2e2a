import torch


def context_vector(attn_weights, inputs):
    weighted = inputs @ attn_weights.unsqueeze(-1) if inputs.shape[0] == inputs.shape[1] else attn_weights @ inputs
    return weighted.flatten()
