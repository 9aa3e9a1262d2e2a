import math
import torch


def scaled_dot_product_scores(queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scores = torch.bmm(queries, keys.transpose(1, 2))   # batched matmul
    return scores / math.sqrt(keys.shape[1])
