import torch
from torch import nn


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    attention = MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12)
    num_parameters = sum(p.numel() for p in attention.parameters())
    assert num_parameters == 2_360_064, num_parameters  # four 768 x 768 matrices + out_proj's bias
