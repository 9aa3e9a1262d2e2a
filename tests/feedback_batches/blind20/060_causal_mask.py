import torch


def causal_mask(num_tokens, device=None):
    # column j of the identity, summed down the rows, is 1 from row j on: the keys a query may see
    seen = torch.eye(num_tokens, dtype=torch.int64, device=device).cumsum(dim=0)
    return seen == 0
