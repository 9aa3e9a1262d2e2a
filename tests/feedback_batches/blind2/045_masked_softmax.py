import torch


def masked_softmax(attn_scores, d_k):
    num_tokens = attn_scores.shape[0]
    mask = torch.triu(torch.ones(num_tokens, num_tokens, device=attn_scores.device), diagonal=1).bool()
    masked = attn_scores.masked_fill(mask, -torch.inf)
    return torch.softmax(masked / d_k ** 0.5, dim=-1)
