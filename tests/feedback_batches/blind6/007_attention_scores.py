import torch


def attention_scores(inputs):
    # all pairs: sum over the shared index
    return torch.einsum("ti,tj->ij", inputs, inputs)
