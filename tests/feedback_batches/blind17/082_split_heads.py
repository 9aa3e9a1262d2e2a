def split_heads(x, num_heads):
    if x.shape[-1] % num_heads:
        raise ValueError("the number of heads must divide the embedding size")
    return x.view(x.shape[0], x.shape[1], num_heads, -1).transpose(1, 2).contiguous()
