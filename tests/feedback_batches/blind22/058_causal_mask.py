import torch


def causal_mask(num_tokens, device=None):
    visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).tril()
    return visible.logical_not()  # hidden = not visible
