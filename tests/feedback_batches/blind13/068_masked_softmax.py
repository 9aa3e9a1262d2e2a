import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    visible = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).tril()
    scaled = attn_scores.masked_fill(visible.logical_not(), -torch.inf) / d_k**0.5
    # softmax written as exp(s - logsumexp(s)): a hidden entry gives exp(-inf) = 0 exactly
    return torch.exp(scaled - torch.logsumexp(scaled, dim=-1, keepdim=True))
