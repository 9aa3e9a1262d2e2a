def merge_heads(x):
    """Unbind the heads and concatenate them feature-wise, head 0 first."""
    return torch.cat(x.unbind(dim=1), dim=-1)  # h tensors (b, T, hd) -> (b, T, h * hd)
