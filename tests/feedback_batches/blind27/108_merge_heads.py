import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.

    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    # one (b, T, hd) tensor per head, laid side by side along the features: head 0 first
    return torch.cat(x.unbind(dim=1), dim=-1)
