import torch


def simple_self_attention(inputs):
    rows = [torch.softmax(inputs @ token, dim=0) @ inputs for token in inputs]
    return torch.stack(rows) if rows else inputs.clone()
