import torch


def causal_mask(num_tokens: int, device=None) -> torch.Tensor:
    return torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).triu(diagonal=1)
