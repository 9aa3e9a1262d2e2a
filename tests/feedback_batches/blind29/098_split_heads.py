def split_heads(x, num_heads):
    # one chunk of features per head, stacked along a new head dim
    heads = x.chunk(num_heads, dim=-1)
    return torch.stack(heads, dim=1)
