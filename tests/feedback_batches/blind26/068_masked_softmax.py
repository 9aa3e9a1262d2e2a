import math


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    scaled = attn_scores / math.sqrt(d_k)  # a new tensor, so in-place is safe below
    hidden = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=scaled.device).triu(1)
    scaled.masked_fill_(hidden, -math.inf)
    return nn.Softmax(dim=-1)(scaled)
