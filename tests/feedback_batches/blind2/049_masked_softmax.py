import torch
import torch.nn.functional as F


def masked_softmax(attn_scores: torch.Tensor, d_k: int) -> torch.Tensor:
    """(..., T, T) raw scores -> causal attention weights."""
    seq_len = attn_scores.shape[-1]
    causal = torch.ones(seq_len, seq_len, dtype=torch.bool, device=attn_scores.device).tril()
    scores = attn_scores * d_k ** -0.5
    scores = torch.where(causal, scores, torch.full_like(scores, float("-inf")))
    return F.softmax(scores, dim=-1)
