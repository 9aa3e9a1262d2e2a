import torch


def masked_softmax(attn_scores: torch.Tensor, d_k: int) -> torch.Tensor:
    """TorchScript-friendly: typed, no Python containers."""
    num_tokens = attn_scores.size(-1)
    hidden = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_scores.device).triu(1)
    masked = attn_scores.masked_fill(hidden, float("-inf"))
    return torch.softmax(masked * (d_k ** -0.5), dim=-1)
