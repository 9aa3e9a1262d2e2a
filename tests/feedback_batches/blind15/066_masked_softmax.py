import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    visible = torch.ones(num_tokens, num_tokens, dtype=attn_scores.dtype, device=attn_scores.device).tril()
    # an additive mask as fairseq and T5 write it: log 1 = 0 where visible, log 0 = -inf where hidden
    bias = torch.log(visible)
    return torch.softmax(attn_scores / math.sqrt(d_k) + bias, dim=-1)
