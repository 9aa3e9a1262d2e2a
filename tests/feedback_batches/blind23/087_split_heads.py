import torch


def split_heads(x, num_heads):
    heads = torch.chunk(x, num_heads, dim=-1)
    return torch.stack(heads, dim=1)
