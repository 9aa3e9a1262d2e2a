import torch


def causal_mask(num_tokens, device=None):
    visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).tril_()
    return visible.logical_not_()  # hidden = not visible
