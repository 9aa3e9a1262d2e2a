import math

def scaled_dot_product_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = keys @ queries.transpose(-2, -1)       # (..., T_k, T_q)
    scores = scores * math.sqrt(d_k)
    return torch.softmax(scores, dim=-1)
