import torch


def causal_mask(num_tokens, device=None):
    # scaled_dot_product_attention convention: True = may attend
    return torch.tril(torch.ones(num_tokens, num_tokens, dtype=torch.bool))
