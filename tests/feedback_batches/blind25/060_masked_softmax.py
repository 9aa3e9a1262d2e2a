import math

def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    # the additive mask M of softmax(Q K^T / sqrt(d_k) + M): 0 where a key is visible, -inf where hidden
    M = torch.zeros(T, T, dtype=attn_scores.dtype, device=attn_scores.device)
    M = M.masked_fill(torch.ones_like(M, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(attn_scores / math.sqrt(d_k) + M, dim=-1)
