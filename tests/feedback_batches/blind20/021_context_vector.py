import torch


def context_vector(attn_weights, inputs):
    weights = torch.softmax(attn_weights, dim=0)  # make sure they sum to 1
    return torch.sum(inputs * weights.reshape(-1, 1), dim=0, dtype=torch.float32)
