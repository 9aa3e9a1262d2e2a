import torch
import torch.nn.functional as F


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    # identity values make the fused kernel return its attention matrix
    eye = torch.eye(keys.shape[-2], dtype=queries.dtype, device=queries.device)
    return F.scaled_dot_product_attention(queries, keys, eye)
