import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, h, T, hd = x.shape
    per_token = torch.einsum("bhtd->bthd", x)  # a permuted view, (b, T, h, hd)
    return per_token.reshape(b, T, h * hd)  # reshape copies because the view is not contiguous
