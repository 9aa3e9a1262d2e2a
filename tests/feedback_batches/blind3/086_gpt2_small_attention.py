import torch
from torch import nn


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    emb_dim, context_length, n_heads = 768, 1024, 12
    # in MultiHeadAttention d_out is the TOTAL width: 12 heads of 768 // 12 = 64 features
    return MultiHeadAttention(emb_dim, emb_dim, context_length, 0.0, n_heads)
