import torch
import torch.nn.functional as F


def simple_self_attention(inputs):
    """softmax(X Xᵀ) X with the softmax over each row, (T, d) -> (T, d)."""
    # PyTorch's fused attention with queries = keys = values = X and no 1/sqrt(d) scaling
    return F.scaled_dot_product_attention(inputs, inputs, inputs, scale=1.0)
