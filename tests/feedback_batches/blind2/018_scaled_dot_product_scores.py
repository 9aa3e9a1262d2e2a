import torch


def scaled_dot_product_scores(queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """Q Kᵀ / sqrt(d_k): (..., T_q, d_k), (..., T_k, d_k) -> (..., T_q, T_k)."""
    d_k = keys.shape[-1]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys)
    return scores / torch.sqrt(torch.tensor(d_k, dtype=queries.dtype))
