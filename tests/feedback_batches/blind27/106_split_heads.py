import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    # one chunk of consecutive features per head, stacked along a new head axis
    return torch.stack(torch.chunk(x, num_heads, dim=-1), dim=1)
