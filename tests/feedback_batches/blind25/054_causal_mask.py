def causal_mask(num_tokens, device=None):
    positions = torch.arange(num_tokens, device=device)
    key_pos, query_pos = torch.meshgrid(positions, positions, indexing="xy")   # [i, j] -> (j, i)
    return key_pos > query_pos          # hidden where the key comes after the query
