def merge_heads(x):
    # one (b, T, hd) tensor per head, laid side by side along the features: head 0 first
    return torch.cat(x.unbind(dim=1), dim=-1)
