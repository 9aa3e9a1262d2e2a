def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # unbind gives one (b, T, hd) tensor per head; cat lays them side by side
    return torch.cat(x.unbind(dim=1), dim=-1)
