def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    head_dim = x.shape[-1] // num_heads
    return torch.stack(x.split(head_dim, dim=-1), dim=1)
