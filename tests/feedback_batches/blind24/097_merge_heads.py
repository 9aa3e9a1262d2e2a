import torch


def merge_heads(x):
    num_heads = x.shape[1]
    # each head's (b, T, hd) block, laid side by side along the features, head 0 first
    return torch.concatenate([x[:, h] for h in range(num_heads)], axis=-1)
