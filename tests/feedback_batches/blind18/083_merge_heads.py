import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # iterate over the heads (transpose them to the front), then lay them side by side, head 0 first
    return torch.concat(list(x.transpose(0, 1)), dim=-1)  # h tensors (b, T, hd) -> (b, T, h * hd)
