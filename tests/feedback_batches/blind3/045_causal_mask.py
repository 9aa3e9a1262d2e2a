import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens), True strictly above the diagonal
    """
    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    ones = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device)
    return torch.triu(ones, diagonal=1)
