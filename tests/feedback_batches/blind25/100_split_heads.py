def split_heads(x, num_heads):
    batch, tokens, features = x.shape
    if num_heads % features != 0:
        raise ValueError(f"{features} features cannot be split into {num_heads} heads")
    per_head = features // num_heads
    return x.view(batch, tokens, num_heads, per_head).transpose(1, 2).contiguous()
