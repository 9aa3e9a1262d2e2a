import torch


def context_vector(attn_weights, inputs):
    weights = torch.softmax(attn_weights, dim=0)  # make sure they are normalised
    return weights @ inputs
