import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens), True strictly above the diagonal
    """
    # nanoGPT layout: (1, 1, T, T) broadcasts over batch and heads
    future = torch.triu(torch.ones(num_tokens, num_tokens, device=device), diagonal=1).bool()
    return future.view(1, 1, num_tokens, num_tokens)
