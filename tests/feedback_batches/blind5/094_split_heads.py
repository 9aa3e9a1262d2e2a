import torch


def split_heads(x, num_heads):
    chunks = torch.chunk(x, num_heads, dim=-1)    # one chunk of features per head
    return torch.stack(chunks, dim=1)             # (b, h, T, hd)
