import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # unbind gives h tensors (b, T, hd); dstack joins 3-d tensors along their third dimension
    return torch.dstack(x.unbind(dim=1))  # (b, T, h * hd), head 0 first
