def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    return torch.cat(x.unbind(dim=1), dim=-1)  # h tensors (b, T, hd) -> (b, T, h * hd)
