import math


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    # (..., T_q, 1, d) * (..., 1, T_k, d) -> (..., T_q, T_k, d), summed over the features
    products = queries.unsqueeze(-2) * keys.unsqueeze(-3)
    return products.sum(dim=-1) / math.sqrt(keys.size(-1))
